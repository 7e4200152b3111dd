package rolepolicy.model;

/** Conclusion of a review rule: the table's rows look like people. */
public record PeopleTable(String table, String rule) {}
