package rolepolicy.cli;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The values a numeric option takes. Before any command runs, {@link Preflight} refuses a value outside
 * them with exit 2 and a message naming the option.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
@interface Range {
  /** The least value allowed. */
  double min() default Double.NEGATIVE_INFINITY;

  /** The greatest value allowed. */
  double max() default Double.POSITIVE_INFINITY;

  /** Whether {@link #min} itself is refused too (a time limit must be above 0). */
  boolean aboveMin() default false;
}
