#!/usr/bin/env python3
"""Dependencies as tested: resolves each published module as a user would, from a project outside
the reactor that imports only rpc-bom, and compares the third-party versions it gets with those the
reactor builds and tests the module with. Exits 1, listing each difference, when they differ.

A user's Maven reads our published POMs, not our reactor: versions and exclusions in the parent's
dependencyManagement apply to our modules' own dependencies only, never to what those bring in
turn (Curator's ZooKeeper, ZooKeeper's Netty). So each published POM must itself declare what it
was tested with; this check finds where one does not.

Nothing is installed into the user's local repository (~/.m2): the outside project resolves into
its own repository under target/dependency-check/repo, where the published POMs are copied as if
installed (the check collects dependencies, which needs POMs only, no jars). Third-party POMs are
read from ~/.m2 as a file repository first (after a build it holds them), then from Maven Central.

Usage: python3 scripts/dependency-check.py   (from anywhere; run by .ci/run after the build)
"""
import os
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "target", "dependency-check")
REPO = os.path.join(WORK, "repo")
OUTSIDE = os.path.join(WORK, "outside")
NS = {"m": "http://maven.apache.org/POM/4.0.0"}
TREE = "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:tree"
USER_REPO = os.path.join(os.path.expanduser("~"), ".m2", "repository")


def text(element, path):
    found = element.find(path, NS)
    return found.text.strip() if found is not None and found.text else None


def published_modules():
    """The artifactIds rpc-bom manages: exactly the published modules."""
    bom = ET.parse(os.path.join(ROOT, "rpc-bom", "pom.xml")).getroot()
    return [text(d, "m:artifactId") for d in bom.findall("m:dependencyManagement/m:dependencies/m:dependency", NS)]


def stage_published_poms(version, modules):
    """Copies the parent's, the BOM's and each published module's POM into the outside repository, as installed."""
    for artifact, source in [("rpc-parent", "pom.xml"), ("rpc-bom", "rpc-bom/pom.xml")] + \
            [(m, m + "/pom.xml") for m in modules]:
        folder = os.path.join(REPO, "dev", "weft", artifact, version)
        os.makedirs(folder, exist_ok=True)
        shutil.copyfile(os.path.join(ROOT, source), os.path.join(folder, "%s-%s.pom" % (artifact, version)))


REPOSITORIES = """
  <repositories>
    <repository><id>user-cache</id><url>file://{cache}</url><snapshots><enabled>false</enabled></snapshots></repository>
  </repositories>
  <pluginRepositories>
    <pluginRepository><id>user-cache</id><url>file://{cache}</url><snapshots><enabled>false</enabled></snapshots></pluginRepository>
  </pluginRepositories>"""


def write_outside_project(version, modules):
    """An aggregator of one user project per published module: it imports rpc-bom and depends on that module only."""
    shutil.rmtree(OUTSIDE, ignore_errors=True)
    os.makedirs(OUTSIDE)
    head = '<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n' \
           '  <modelVersion>4.0.0</modelVersion>\n  <groupId>check.outside</groupId>\n'
    with open(os.path.join(OUTSIDE, "pom.xml"), "w") as out:
        out.write(head + '  <artifactId>outside</artifactId>\n  <version>1</version>\n  <packaging>pom</packaging>\n'
                  + "  <modules>\n" + "".join("    <module>%s</module>\n" % m for m in modules) + "  </modules>\n"
                  + REPOSITORIES.format(cache=USER_REPO) + "\n</project>\n")
    for module in modules:
        os.makedirs(os.path.join(OUTSIDE, module))
        with open(os.path.join(OUTSIDE, module, "pom.xml"), "w") as out:
            out.write(head + "  <artifactId>uses-%s</artifactId>\n  <version>1</version>\n" % module
                      + "  <dependencyManagement><dependencies><dependency>\n"
                      + "    <groupId>dev.weft</groupId><artifactId>rpc-bom</artifactId><version>%s</version>\n" % version
                      + "    <type>pom</type><scope>import</scope>\n  </dependency></dependencies></dependencyManagement>\n"
                      + "  <dependencies><dependency><groupId>dev.weft</groupId><artifactId>%s</artifactId>" % module
                      + "</dependency></dependencies>\n"
                      + REPOSITORIES.format(cache=USER_REPO) + "\n</project>\n")


def mvn(args, cwd):
    command = ["mvn", "-B", "-ntp", "-q"] + args
    done = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout)
        sys.exit("dependency check: %s failed in %s" % (" ".join(command), cwd))


LINE = re.compile(r"^[| +\\-]*([^:\s]+):([^:\s]+):([^:\s]+)(?::([^:\s]+))?:([^:\s]+):(compile|runtime|provided|test|system)")


def third_party(tree_file):
    """
    groupId:artifactId[:classifier] -> (version, under_test) for the compile and runtime
    dependencies of a tree, ours left out. under_test marks one the tree shows below a test,
    provided or optional node: the tree prints a managed scope there (Netty's runtime below a
    test-scoped module), though such a dependency may never reach a user.
    """
    result = {}
    hidden_below = None  # depth of the test, provided or optional node being walked below
    with open(tree_file) as tree:
        for line in tree.read().splitlines()[1:]:
            match = LINE.match(line)
            if not match:
                continue
            depth = len(line) - len(line.lstrip("|+\\- "))
            if hidden_below is not None and depth <= hidden_below:
                hidden_below = None
            group, artifact, _type, classifier, version, scope = match.groups()
            if scope not in ("compile", "runtime") or line.rstrip().endswith("(optional)"):
                if hidden_below is None:
                    hidden_below = depth
                continue
            if group == "dev.weft":
                continue
            result[group + ":" + artifact + (":" + classifier if classifier else "")] = (version, hidden_below is not None)
    return result


def known_differences():
    """The differences scripts/dependency-check-known.txt accepts, each with its reason there."""
    path = os.path.join(ROOT, "scripts", "dependency-check-known.txt")
    known = set()
    with open(path) as listed:
        for line in listed:
            line = line.split("#", 1)[0].strip()
            if line:
                known.add(line)
    return known


def main():
    started = time.monotonic()
    version = text(ET.parse(os.path.join(ROOT, "pom.xml")).getroot(), "m:version")
    modules = published_modules()
    os.makedirs(WORK, exist_ok=True)
    stage_published_poms(version, modules)
    write_outside_project(version, modules)

    # What we build and test with: the reactor's own resolution of each published module.
    mvn(["-pl", ",".join(modules), TREE, "-DoutputFile=target/dependency-check-tree.txt"], ROOT)
    # What a user gets: the outside project, in its own repository.
    mvn(["-Dmaven.repo.local=" + REPO, TREE, "-DoutputFile=target/dependency-check-tree.txt"], OUTSIDE)

    differences = []
    known = known_differences()
    for module in modules:
        ours = third_party(os.path.join(ROOT, module, "target", "dependency-check-tree.txt"))
        theirs = third_party(os.path.join(OUTSIDE, module, "target", "dependency-check-tree.txt"))
        for key in sorted(set(ours) | set(theirs)):
            tested, under_test = ours.get(key, ("(absent)", False))
            got = theirs.get(key, ("(absent)", False))[0]
            if tested == got or (under_test and key not in theirs) or "%s %s" % (module, key) in known:
                continue
            differences.append("%s: %s tested %s, a user on rpc-bom gets %s" % (module, key, tested, got))
    elapsed = time.monotonic() - started
    if differences:
        print("dependency check: %d difference(s) between what we test and what users resolve (%.0f s):"
              % (len(differences), elapsed))
        for difference in differences:
            print("  " + difference)
        print("Declare the tested version (or the exclusion) in the published module's own POM:"
              " the parent's dependencyManagement does not reach users.")
        sys.exit(1)
    print("dependency check: %d published modules resolve from rpc-bom as tested (%.0f s)" % (len(modules), elapsed))


if __name__ == "__main__":
    main()
