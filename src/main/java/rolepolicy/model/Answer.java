package rolepolicy.model;

/** The query as it stands is compliant: it is the gold SQL. */
public record Answer(String rule) implements Decision {}
