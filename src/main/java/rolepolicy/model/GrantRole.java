package rolepolicy.model;

/**
 * The role whose privileges the grants profile's rules turn into policies, as PostgreSQL names it
 * (an unquoted name folded to lower case).
 *
 * @param name the role
 */
public record GrantRole(String name) {}
