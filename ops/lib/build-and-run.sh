# The one way ops/ scripts build what they run and start a JVM. Source it (bash):
#
#   . "$(dirname "$0")/lib/build-and-run.sh"
#   jar=$(nakcast_jar cli)                        # cli/target/nakcast-cli.jar
#   exec "${nakcast_java[@]}" -cp "$jar" org.nakcast.cli.Nakcast "$@"
#
# nakcast_build ARTIFACT MODULE GOALS_AND_FLAGS...
#     Builds ARTIFACT (a path under the repository) with ./mvnw -pl MODULE -am GOALS_AND_FLAGS,
#     unless it is there and newer than every pom.xml, every file under a module's src/main,
#     MODULE's src/test and config/*.yaml (any module's: a change anywhere rebuilds, never a stale
#     jar), and built by this same java (ARTIFACT.jdk names the JDK that built it: a jar built on
#     JDK 17 lacks the native media, which needs 22+, so a change of JDK rebuilds; so does a jar
#     newer than its ARTIFACT.jdk, built by hand since). One build at a time per working tree: a caller that finds another building waits for it
#     (flock on target/ops-build.lock), then checks again, so two scripts started together (sub,
#     then pub) build once. Maven's output goes to stderr; nothing is printed on stdout. MAVEN_ARGS
#     in the environment reaches Maven as usual (./mvnw reads it).
# nakcast_jar MODULE
#     Prints the path of MODULE's runnable jar, MODULE/target/nakcast-MODULE.jar, built by
#     nakcast_build with `package -DskipTests`.
# nakcast_simulator_classpath
#     Prints the class path the deterministic simulator runs with (ops/simulate, ops/mutation): the
#     simulator module's classes and its runtime class path (the transport's classes among them),
#     built by nakcast_build (compile, and the class path in simulator/target/simulate.classpath).
# nakcast_java
#     An array: this java (${JAVA_HOME}/bin/java if JAVA_HOME is set, else the java on PATH, as an
#     absolute path so that nsenter and unshare find it), @ops/jvm.options and the optional
#     modules' flags files (jvm-fst, jvm-kryo, jvm-peers, jvm-native: the tools carry them all), then
#     $JAVA_OPTS split on spaces. Every JVM an ops/ script starts starts with it.
#
# It sends nothing and changes no directory.

nakcast_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

nakcast_java_cmd=$(command -v "${JAVA_HOME:+$JAVA_HOME/bin/}java" || true)
if [ -z "$nakcast_java_cmd" ]; then
    echo "ops: no java found (set JAVA_HOME or put java on PATH)" >&2
    exit 1
fi
# shellcheck disable=SC2206 # JAVA_OPTS is a list of flags, split on spaces
# The tools' jars carry every codec and the peers, so their JVMs take every flags file.
nakcast_java=("$nakcast_java_cmd" "@$nakcast_root/ops/jvm.options" "@$nakcast_root/ops/jvm-fst.options"
    "@$nakcast_root/ops/jvm-kryo.options" "@$nakcast_root/ops/jvm-peers.options"
    "@$nakcast_root/ops/jvm-native.options" ${JAVA_OPTS:-})

# The JDK this script runs, as the path of its java with every link resolved: what a built artifact
# records in ARTIFACT.jdk.
nakcast_jdk=$(readlink -f "$nakcast_java_cmd")

# nakcast_stale ARTIFACT MODULE: true if ARTIFACT is missing, built by another JDK, or older than
# what it is built from.
nakcast_stale() {
    local artifact=$1 module=$2
    [ -f "$artifact" ] || return 0
    [ "$(cat "$artifact.jdk" 2>/dev/null)" = "$nakcast_jdk" ] || return 0
    # built again since (./mvnw run by hand, maybe on another JDK): the record no longer says by what
    [ ! "$artifact" -nt "$artifact.jdk" ] || return 0
    [ -n "$(find "$nakcast_root" \( -name target -o -name .git \) -prune -o -type f \
        \( -name pom.xml -o -path '*/src/main/*' -o -path "$nakcast_root/$module/src/test/*" \
        -o -path "$nakcast_root/config/*.yaml" \) -newer "$artifact" -print -quit)" ]
}

nakcast_build() {
    local artifact=$nakcast_root/$1 module=$2
    shift 2
    nakcast_stale "$artifact" "$module" || return 0
    mkdir -p "$nakcast_root/target" || return
    # Every step says how it failed: callers use this in $(...), where set -e does not reach.
    (
        flock 9 || exit
        nakcast_stale "$artifact" "$module" || exit 0
        maven_flags=(-q -B -ntp)
        [ "${CI:-}" = "true" ] && maven_flags+=(-Dstyle.color=never)
        echo "== building $module (./mvnw -pl $module -am $*)" >&2
        (cd "$nakcast_root" && ./mvnw "${maven_flags[@]}" -pl "$module" -am "$@") >&2 || exit
        # Maven may leave an up-to-date artifact as it was: mark it built from what is there now,
        # by this JDK.
        touch "$artifact"
        echo "$nakcast_jdk" > "$artifact.jdk"
    ) 9>"$nakcast_root/target/ops-build.lock"
}

nakcast_jar() {
    local jar=$1/target/nakcast-$1.jar
    nakcast_build "$jar" "$1" package -DskipTests || return
    echo "$nakcast_root/$jar"
}

nakcast_simulator_classpath() {
    nakcast_build simulator/target/simulate.classpath simulator compile dependency:build-classpath \
        -Dmdep.outputFile=target/simulate.classpath -Dmdep.includeScope=runtime || return
    echo "$nakcast_root/simulator/target/classes:$(cat "$nakcast_root/simulator/target/simulate.classpath")"
}
