package org.nakcast.config;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamContext;

/**
 * Key paths as errors show them: {@code topics[2].transport}, {@code node.idle-strategy},
 * {@code topics[0].allowed-classes[1]}; the empty path is the whole document.
 */
final class KeyPaths {
    private KeyPaths() {
    }

    static String child(String parent, String key) {
        return parent.isEmpty() ? key : parent + "." + key;
    }

    static String element(String parent, int index) {
        return parent + "[" + index + "]";
    }

    /** @return the path one level up, {@code topics[2]} for {@code topics[2].transport}; empty at the top */
    static String parent(String path) {
        int cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
        return cut < 0 ? "" : path.substring(0, cut);
    }

    /** @return the path of the parser's current token */
    static String of(TokenStreamContext context) {
        Deque<TokenStreamContext> chain = new ArrayDeque<>();
        for (TokenStreamContext level = context; level != null; level = level.getParent()) {
            chain.push(level);
        }
        String path = "";
        for (TokenStreamContext level : chain) {
            if (level.inArray() && level.hasCurrentIndex()) {
                path = element(path, level.getCurrentIndex());
            } else if (level.inObject() && level.currentName() != null) {
                path = child(path, level.currentName());
            }
        }
        return path;
    }

    /** @return the path a Jackson exception points at */
    static String of(List<JacksonException.Reference> references) {
        String path = "";
        for (JacksonException.Reference reference : references) {
            if (reference.getPropertyName() != null) {
                path = child(path, reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                path = element(path, reference.getIndex());
            }
        }
        return path;
    }
}
