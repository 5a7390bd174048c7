#!/usr/bin/env bash
# Runs every hand-run benchmark of docs/benchmarks.md one after another on a quiet machine, each
# writing its results to DIR (default docs/benchmarks/results), then rewrites the doc's tables from
# DIR (CI's --check reads docs/benchmarks/results: copy other DIRs there before committing).
# About 35 minutes on 2 cores; WITH_JMH_CORE=1 adds the in-JVM JMH suite (about 25 minutes more),
# SKIP_SPRING=1 leaves out the Spring Boot bars. Run from anywhere; nothing else should run meanwhile.
#
# Usage: rpc-benchmarks/src/main/scripts/run-all.sh [DIR]
# Needs: mvn -B -ntp -q -DskipTests package -pl rpc-benchmarks -am (rpc-benchmarks/target/benchmarks.jar)
set -euo pipefail
cd "$(dirname "$0")/../../../.."
DIR=$(realpath -m "${1:-docs/benchmarks/results}")
COMMIT=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!docs' || echo "-dirty")
JAR=rpc-benchmarks/target/benchmarks.jar
[ -f "$JAR" ] || { echo "$JAR: missing (expected: mvn -B -ntp -q -DskipTests package -pl rpc-benchmarks -am first)" >&2; exit 2; }
mkdir -p "$DIR"
LOG=$PWD/rpc-benchmarks/target/run-all.log
BARS_CP=$PWD/rpc-spring-boot-example/target/bars-cp.txt
echo "results in $DIR, commit $COMMIT, log $LOG"

if [ "${SKIP_SPRING:-0}" != 1 ]; then
  # built before anything is measured: the Spring Boot example with Dubbo's starter (profile bars)
  mvn -B -ntp -q -Pbars -Denforcer.skip -pl rpc-spring-boot-example -am test-compile \
      dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile="$BARS_CP"
fi

run() {  # run MAIN ARGS...: one runner in its own JVM, output appended to the log
  echo "== $(date -u +%H:%M:%S) $*" | tee -a "$LOG"
  java -Dweft.results="$DIR" -Dweft.commit="$COMMIT" -cp "$JAR" "dev.weft.rpc.benchmarks.$@" >>"$LOG" 2>&1
}

run NetworkBenchmark 10 3
run RegistryBenchmark routing 200
run RegistryBenchmark change 200
run RegistryBenchmark cycles 10000 600
run ResilienceBenchmark 10
run JmhRun pipeline PipelineBenchmark -f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc
run JmhRun observability-pipeline ObservabilityBenchmark.pipeline -p binding=off,metrics -f 3 -wi 5 -i 8 -w 2s -r 2s
run ObservedNetworkRun 10 5 both
run ObservedNetworkRun 10 5 sampled
run ObservedNetworkRun 10 5 metrics
run ObservedNetworkRun 10 5 unsampled
run HostilePeersBenchmark 60
run ColdStart 11
if [ "${WITH_JMH_CORE:-0}" = 1 ]; then
  run JmhRun jmh-core -e 'ColdStart|Observability|PipelineBenchmark|weftPicker' -f 1 -wi 3 -w 1s -i 5 -r 1s
  run JmhRun jmh-pickers 'LoadBalanceBenchmark|ClusterBenchmark|PickFloorBenchmark' -p weights=mixed \
      -f 1 -wi 5 -w 1s -i 5 -r 1s -prof gc
fi
if [ "${SKIP_SPRING:-0}" != 1 ]; then
  echo "== $(date -u +%H:%M:%S) Bars 3" | tee -a "$LOG"
  (cd rpc-spring-boot-example && java -Dweft.results="$DIR" -Dweft.commit="$COMMIT" \
      -cp "target/classes:$(cat "$BARS_CP")" dev.weft.rpc.examples.spring.bars.Bars \
      "$BARS_CP" target/classes 3 >>"$LOG" 2>&1)
fi
echo "== $(date -u +%H:%M:%S) done" | tee -a "$LOG"
python3 rpc-benchmarks/src/main/scripts/benchmark_doc.py --results "$DIR"
