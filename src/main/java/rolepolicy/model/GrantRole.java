package rolepolicy.model;

/**
 * The role whose privileges the grants profile's rules turn into policies; lower-cased.
 *
 * @param name the role
 */
public record GrantRole(String name) {}
