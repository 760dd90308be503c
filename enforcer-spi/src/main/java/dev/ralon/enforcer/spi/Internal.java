package dev.ralon.enforcer.spi;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks API that is public only because Ralon's own modules share it across jars (its native layer, its host, its
 * policy engine): no compatibility promise at all, not even within a patch release, and no changelog entry. A third
 * party builds against {@link Stable} types, and {@link Experimental} ones when it must; never against these. On a
 * package, every type in it is internal.
 *
 * @since 0.1.0
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.FIELD, ElementType.PACKAGE})
@Stable(since = "0.1.0")
public @interface Internal {
    /** Which of Ralon's modules share it, and why it is public. */
    String value() default "";
}
