package org.nakcast.config;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads a config from YAML text in three rounds, each reporting all it finds:
 * <ol>
 *   <li>a pass over the YAML tokens records where every key and value is
 *       ({@link SourceScanner}) and catches repeated keys;</li>
 *   <li>Jackson binds the text to the records, with every unknown key and unreadable value
 *       recorded ({@link ProblemRecorder}), then every missing required key is found
 *       ({@link RequiredKeys});</li>
 *   <li>if the shape is right, {@link Conclusion} checks what the values mean.</li>
 * </ol>
 */
final class ConfigReader {
    private static final YAMLMapper MAPPER = YAMLMapper.builder()
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
        .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS) // the scanner reports a second document
        .addModule(valueTypes())
        .addHandler(new ProblemRecorder())
        .build();

    private static final Pattern PARSER_MARK = Pattern.compile("line (\\d+), column (\\d+)");

    private ConfigReader() {
    }

    private static SimpleModule valueTypes() {
        return new SimpleModule("nakcast-config-values")
            .addDeserializer(Boolean.class, new TextValueDeserializer<>(Boolean.class, ConfigReader::parseBoolean))
            .addDeserializer(ByteSize.class, new TextValueDeserializer<>(ByteSize.class, ByteSize::parse))
            .addDeserializer(Duration.class, new TextValueDeserializer<>(Duration.class, Durations::parse))
            .addDeserializer(InetAddress.class, new TextValueDeserializer<>(InetAddress.class, IpLiterals::parse))
            .addDeserializer(Path.class, new TextValueDeserializer<>(Path.class, Path::of))
            .addDeserializer(Endpoint.class, new TextValueDeserializer<>(Endpoint.class, Endpoint::parse))
            .addDeserializer(NetworkInterfaceRef.class,
                new TextValueDeserializer<>(NetworkInterfaceRef.class, NetworkInterfaceRef::of))
            .addDeserializer(ThreadingMode.class, enumValues(ThreadingMode.class))
            .addDeserializer(IdleStrategyType.class, enumValues(IdleStrategyType.class))
            .addDeserializer(MediaType.class, enumValues(MediaType.class))
            .addDeserializer(FlowControlMode.class, enumValues(FlowControlMode.class))
            .addDeserializer(LossPolicy.class, enumValues(LossPolicy.class))
            .addDeserializer(LateJoinPolicy.class, enumValues(LateJoinPolicy.class))
            .addDeserializer(RecordingSync.class, enumValues(RecordingSync.class));
    }

    /** A switch: {@code true} or {@code false}, nothing YAML 1.1 also took ({@code yes}, {@code on}, {@code 1}). */
    private static Boolean parseBoolean(String text) {
        if ("true".equals(text) || "false".equals(text)) {
            return Boolean.valueOf(text);
        }
        throw new BadValueException("'" + text + "' is not a switch", "write true or false");
    }

    private static <E extends Enum<E>> TextValueDeserializer<E> enumValues(Class<E> type) {
        return new TextValueDeserializer<>(type, text -> EnumNames.parse(type, text));
    }

    /**
     * @param yaml the config as YAML text
     * @param sourceName where the text came from, for messages
     * @param context what to check the config against
     * @return the concluded config
     * @throws ConfigException with every problem found
     */
    static NodeConfig read(String yaml, String sourceName, ConcludeContext context) {
        ProblemList problems = new ProblemList(scan(yaml, sourceName));
        ConfigSource source = problems.source();
        if (!source.hasValue("")) {
            problems.add("", "the config is empty", "it needs at least the keys transports and topics");
            problems.throwIfAny();
        }
        source.repeatedKeys().forEach((path, at) -> problems.add(path, at, "key written twice",
            "the first is at line " + source.keyLocation(path).line() + "; keep one"));
        if (source.secondDocument().isKnown()) {
            problems.add("", source.secondDocument(), "a second YAML document",
                "a config is one document: remove '---'");
        }
        NodeConfig bound = bind(yaml, problems);
        if (bound != null) {
            RequiredKeys.check(bound, problems);
        }
        problems.throwIfAny();
        final NodeConfig concluded = Conclusion.conclude(bound, context, problems);
        return new NodeConfig(concluded.node(), concluded.transports(),
            new LocatedTopics(concluded.topics(), source), concluded.recorder());
    }

    private static ConfigSource scan(String yaml, String sourceName) {
        try (JsonParser parser = MAPPER.createParser(yaml)) {
            return SourceScanner.scan(parser, sourceName);
        } catch (JacksonException notYaml) {
            throw ProblemList.wholeSourceFailure(sourceName, syntaxErrorLocation(notYaml),
                "YAML syntax error: " + syntaxErrorText(notYaml.getOriginalMessage()));
        }
    }

    /** The YAML parser's own words, without its copies of the offending lines: the lines that start a sentence. */
    private static String syntaxErrorText(String parserMessage) {
        return parserMessage.lines().filter(line -> !line.isBlank() && !Character.isWhitespace(line.charAt(0)))
            .collect(Collectors.joining(": "));
    }

    /** The last place the YAML parser names is where it gave up; Jackson's location may be where the token began. */
    private static SourceLocation syntaxErrorLocation(JacksonException notYaml) {
        Matcher mark = PARSER_MARK.matcher(notYaml.getOriginalMessage());
        SourceLocation last = SourceLocation.of(notYaml.getLocation());
        while (mark.find()) {
            last = new SourceLocation(Integer.parseInt(mark.group(1)), Integer.parseInt(mark.group(2)));
        }
        return last;
    }

    private static NodeConfig bind(String yaml, ProblemList problems) {
        try {
            return MAPPER.readerFor(NodeConfig.class).withAttribute(ProblemList.class, problems).readValue(yaml);
        } catch (JacksonException cannotBind) {
            problems.add(KeyPaths.of(cannotBind.getPath()), describe(cannotBind));
            return null;
        }
    }

    private static String describe(JacksonException failure) {
        if (failure instanceof InputCoercionException) {
            return "number out of range (at most " + Integer.MAX_VALUE + ")";
        }
        if (failure instanceof InvalidFormatException badValue) {
            return "'" + badValue.getValue() + "' is not " + ProblemRecorder.kindOf(badValue.getTargetType());
        }
        return firstLine(failure.getOriginalMessage());
    }

    private static String firstLine(String text) {
        return text.lines().findFirst().orElse(text);
    }
}
