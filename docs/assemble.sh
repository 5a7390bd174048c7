#!/usr/bin/env bash
# Assembles README.md from the parts in docs/ (edit the parts, then run this).
set -euo pipefail
cd "$(dirname "$0")"
parts=(_intro.md rpc-cluster.md rpc-loadbalance.md rpc-mock.md rpc-proxy.md extension.md rpc-spi.md
       rpc-common.md rpc-examples.md benchmarks.md _build.md)
{
  for part in "${parts[@]}"; do
    if [[ -f "$part" ]]; then
      # links written relative to docs/ become relative to the root
      sed -e 's#](\.\./#](#g' "$part"
      echo
    fi
  done
} > ../README.md
