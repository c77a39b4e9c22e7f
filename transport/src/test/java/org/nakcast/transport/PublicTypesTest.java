package org.nakcast.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The transport's README lists every public type of the packages its module exports, and only
 * those: the list a service reads is the surface it can reach.
 */
class PublicTypesTest {
    private static final Path CLASSES = Path.of("target/classes");
    private static final String PREFIX = "org.nakcast.transport.";
    private static final Pattern LISTED = Pattern.compile("^\\| `([\\w.]+)` \\|", Pattern.MULTILINE);

    @Test
    void theModuleExportsTheApiAndTheCountersAlone() throws IOException {
        assertThat(descriptor().exports()).extracting(ModuleDescriptor.Exports::source)
            .containsExactlyInAnyOrder("org.nakcast.transport", "org.nakcast.transport.status");
    }

    @Test
    void theReadmeListsEveryPublicTypeTheModuleExportsAndNoOther() throws IOException, ClassNotFoundException {
        final Set<String> exported = new TreeSet<>();
        for (ModuleDescriptor.Exports export : descriptor().exports()) {
            exported.addAll(publicTypes(export.source()));
        }

        assertThat(listedInReadme()).isEqualTo(exported);
    }

    private static ModuleDescriptor descriptor() throws IOException {
        try (InputStream in = Files.newInputStream(CLASSES.resolve("module-info.class"))) {
            return ModuleDescriptor.read(in);
        }
    }

    /**
     * The public top-level types of {@code packageName}, named as the README names them: by their
     * name in {@code org.nakcast.transport}, with the subpackage below it.
     */
    private static Set<String> publicTypes(String packageName) throws IOException, ClassNotFoundException {
        final Set<String> names = new TreeSet<>();
        try (Stream<Path> files = Files.list(CLASSES.resolve(packageName.replace('.', '/')))) {
            for (Path file : files.toList()) {
                final String fileName = file.getFileName().toString();
                if (!fileName.endsWith(".class") || fileName.contains("$") || fileName.equals("package-info.class")) {
                    continue;
                }
                final String className = packageName + "." + fileName.substring(0, fileName.length() - 6);
                if (Modifier.isPublic(Class.forName(className, false, PublicTypesTest.class.getClassLoader())
                    .getModifiers())) {
                    names.add(className.substring(PREFIX.length()));
                }
            }
        }
        return names;
    }

    private static Set<String> listedInReadme() throws IOException {
        final String readme = Files.readString(Path.of("README.md"));
        final int from = readme.indexOf("## Public types");
        final String section = readme.substring(from, readme.indexOf("\n## ", from + 1));
        final Set<String> listed = new TreeSet<>();
        final Matcher matcher = LISTED.matcher(section);
        while (matcher.find()) {
            listed.add(matcher.group(1));
        }
        return listed;
    }
}
