package dev.weft.rpc.it.build;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** One {@code <dependency>} of a POM's own {@code <dependencies>} (not dependencyManagement, not plugins). */
record DeclaredDependency(String groupId, String artifactId, String scope, boolean optional, Path pom) {

    boolean isTestScope() {
        return scope.equals("test");
    }

    /** Whether the jar is on a user's class path at compile or run time (an optional one never is). */
    boolean reachesUsers() {
        return !optional && (scope.equals("compile") || scope.equals("runtime"));
    }

    @Override
    public String toString() {
        return groupId + ":" + artifactId + " (" + scope + ") in " + pom;
    }

    static List<DeclaredDependency> of(Path pom) {
        Element project = parse(pom).getDocumentElement();
        List<DeclaredDependency> result = new ArrayList<>();
        Element dependencies = child(project, "dependencies");
        if (dependencies == null) {
            return result;
        }
        for (Element dependency : children(dependencies, "dependency")) {
            String scope = text(dependency, "scope");
            result.add(new DeclaredDependency(text(dependency, "groupId"), text(dependency, "artifactId"),
                    scope == null ? "compile" : scope, "true".equals(text(dependency, "optional")), pom));
        }
        return result;
    }

    /** The artifactIds of {@code <dependencyManagement>} of a POM (the BOM's list). */
    static List<String> managedArtifactIds(Path pom) {
        Element project = parse(pom).getDocumentElement();
        List<String> result = new ArrayList<>();
        Element management = child(project, "dependencyManagement");
        Element dependencies = management == null ? null : child(management, "dependencies");
        if (dependencies != null) {
            for (Element dependency : children(dependencies, "dependency")) {
                result.add(text(dependency, "artifactId"));
            }
        }
        return result;
    }

    static List<String> modules(Path pom) {
        Element modules = child(parse(pom).getDocumentElement(), "modules");
        List<String> result = new ArrayList<>();
        if (modules != null) {
            for (Element module : children(modules, "module")) {
                result.add(module.getTextContent().trim());
            }
        }
        return result;
    }

    private static Document parse(Path pom) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder().parse(pom.toFile());
        } catch (Exception e) {
            throw new IllegalStateException("POM: " + pom + " (expected: readable XML): " + e, e);
        }
    }

    private static Element child(Element parent, String name) {
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0);
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> result = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node node = nodes.item(i);
            if (node instanceof Element && ((Element) node).getTagName().equals(name)) {
                result.add((Element) node);
            }
        }
        return result;
    }

    private static String text(Element parent, String name) {
        Element element = child(parent, name);
        return element == null ? null : element.getTextContent().trim();
    }
}
