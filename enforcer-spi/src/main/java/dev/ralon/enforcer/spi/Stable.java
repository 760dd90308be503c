package dev.ralon.enforcer.spi;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks API that third-party enforcers may rely on: within a major version it only grows. A method may be added to an
 * interface only with a default; a component may be added to a data type only where the type is built through a
 * builder or factory method (never a public canonical constructor); nothing is removed or changes meaning. The build
 * of this module checks the binary compatibility of everything marked stable against the last release
 * (docs/writing-an-enforcer.md, "Compatibility").
 *
 * @since 0.1.0
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.FIELD, ElementType.PACKAGE})
@Stable(since = "0.1.0")
public @interface Stable {
    /** The version in which the element became stable. */
    String since();
}
