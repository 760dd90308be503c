package dev.ralon.enforcer.spi;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks API that may still change or go in any minor release, with a note in the changelog (docs/spi-changelog.md).
 * Use it when you must, and build against the exact Ralon version you run with. An element marked experimental inside
 * a {@link Stable} type is experimental.
 *
 * @since 0.1.0
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.FIELD, ElementType.PACKAGE})
@Stable(since = "0.1.0")
public @interface Experimental {
    /** Why it is not stable yet, or what may change. */
    String value() default "";
}
