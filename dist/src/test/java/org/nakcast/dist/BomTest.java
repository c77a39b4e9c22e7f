package org.nakcast.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * nakcast-bom (bom/pom.xml) manages every library artifact at the build's version. It has no parent
 * (an imported BOM would otherwise bring the build's own tool versions), so its version and list
 * are written out; this test keeps them true. A library is a module of the root pom that attaches
 * sources and javadoc (its pom declares maven-javadoc-plugin).
 */
class BomTest {
    private static final Path ROOT = Path.of(System.getProperty("nakcast.root"));
    private static final String VERSION = System.getProperty("nakcast.version");

    @Test
    void managesEveryLibraryAtTheBuildsVersion() throws Exception {
        final Element bom = read(ROOT.resolve("bom/pom.xml"));
        assertThat(childText(bom, "version")).isEqualTo(VERSION);

        final List<String> managed = new ArrayList<>();
        final NodeList dependencies = bom.getElementsByTagName("dependency");
        for (int i = 0; i < dependencies.getLength(); i++) {
            final Element dependency = (Element) dependencies.item(i);
            assertThat(childText(dependency, "groupId")).isEqualTo("org.nakcast");
            assertThat(childText(dependency, "version")).isEqualTo("${project.version}");
            managed.add(childText(dependency, "artifactId"));
        }
        assertThat(managed).containsExactlyInAnyOrderElementsOf(libraries());
    }

    private static List<String> libraries() throws Exception {
        final List<String> libraries = new ArrayList<>();
        final NodeList modules = read(ROOT.resolve("pom.xml")).getElementsByTagName("module");
        for (int i = 0; i < modules.getLength(); i++) {
            final Element pom = read(ROOT.resolve(modules.item(i).getTextContent()).resolve("pom.xml"));
            final NodeList plugins = pom.getElementsByTagName("artifactId");
            for (int j = 0; j < plugins.getLength(); j++) {
                if ("maven-javadoc-plugin".equals(plugins.item(j).getTextContent())) {
                    libraries.add(childText(pom, "artifactId"));
                    break;
                }
            }
        }
        assertThat(libraries).as("the library modules").contains("nakcast-transport", "nakcast-codecs-core");
        return libraries;
    }

    private static Element read(Path pom) throws ParserConfigurationException, SAXException, IOException {
        final DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        final Document document = factory.newDocumentBuilder().parse(pom.toFile());
        return document.getDocumentElement();
    }

    /** The text of an element's own child of that name (not a descendant's). */
    private static String childText(Element parent, String name) {
        for (Node child = parent.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (child instanceof Element && name.equals(child.getNodeName())) {
                return child.getTextContent().trim();
            }
        }
        throw new AssertionError(parent.getNodeName() + " has no " + name);
    }
}
