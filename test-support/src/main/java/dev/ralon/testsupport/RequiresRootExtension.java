package dev.ralon.testsupport;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Applies {@link RequiresRoot} before each test: the method's annotation, else the class's (an enclosing class's
 * counts too). Before each test, not once per class, so that a class-level annotation still reports every test.
 */
public final class RequiresRootExtension implements BeforeEachCallback {
    @Override
    public void beforeEach(ExtensionContext context) {
        RequiresRoot r = context.getTestMethod()
                .flatMap(m -> AnnotationSupport.findAnnotation(m, RequiresRoot.class))
                .or(() -> context.getTestClass().flatMap(RequiresRootExtension::onClass))
                .orElse(null);
        if (r != null) {
            Requirements.requireRoot(r.value());
        }
    }

    private static java.util.Optional<RequiresRoot> onClass(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
            var found = AnnotationSupport.findAnnotation(k, RequiresRoot.class);
            if (found.isPresent()) {
                return found;
            }
        }
        return java.util.Optional.empty();
    }
}
