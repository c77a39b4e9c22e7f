/**
 * nakcast's configuration: the YAML a node is launched from (nodes, transports, topics), read with
 * Jackson and checked as a whole, each mistake named with its line and column.
 */
module org.nakcast.config {
    requires tools.jackson.databind;
    requires tools.jackson.dataformat.yaml;

    exports org.nakcast.config;

    opens org.nakcast.config to tools.jackson.databind;
}
