package dev.ralon.testsupport;

import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The annotated test (or every test of the annotated class) needs root: skipped with {@link #value} as the reason
 * when not root outside CI, failed when not root under {@code CI=true} ({@link Requirements#require}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(RequiresRootExtension.class)
public @interface RequiresRoot {
    /** Why root is needed, e.g. "starts uid 65534 with setpriv". */
    String value();
}
