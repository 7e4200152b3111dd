package rolepolicy.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.kie.api.KieBase;
import rolepolicy.model.ColumnRef;
import rolepolicy.model.Decision;
import rolepolicy.model.NegativeEdit;
import rolepolicy.model.NegativeSearch;
import rolepolicy.model.PolicedColumn;
import rolepolicy.model.QueryFacts;
import rolepolicy.model.QueryViolation;
import rolepolicy.model.ReadViolation;
import rolepolicy.model.RewriteRound;
import rolepolicy.model.StarRead;
import rolepolicy.model.TableRead;
import rolepolicy.model.Violation;

/** Runs the permission, rewrite and negative rules over one query's facts. */
public final class QuestionEngine {
  /** What one round concluded: violations in walk order, the decision, the negative edit. */
  public record Round(List<Violation> violations, Decision decision, NegativeEdit negative) {}

  private final Sessions sessions;

  public QuestionEngine(KieBase rules) {
    this.sessions = new Sessions(rules);
  }

  /**
   * Decides one rewrite round over a query's facts and {@code extra} ones; with {@code
   * searchNegative} the negative rules choose an edit too.
   */
  public Round decide(
      QueryFacts query,
      DatabasePolicies policies,
      int step,
      boolean searchNegative,
      List<Object> extra,
      Audit audit,
      String stage) {
    List<Object> facts = queryFacts(query.refs(), query.tables(), policies);
    facts.addAll(starsRead(query.starTables()));
    facts.add(query.shape());
    facts.addAll(query.fromTables());
    facts.addAll(query.selectItems());
    facts.add(new RewriteRound(step));
    if (searchNegative) {
      facts.add(new NegativeSearch());
    }
    facts.addAll(extra);
    List<Object> after = sessions.fire(facts, audit, stage);
    List<Decision> decisions = Sessions.only(after, Decision.class);
    if (decisions.size() != 1) {
      throw sessions.lacking("rewrites.drl", "the rewrite rules reached " + decisions.size()
          + " decisions at " + stage + "; each question needs exactly one Decision (ANSWER, REWRITE or REFUSE)");
    }
    List<NegativeEdit> negatives = Sessions.only(after, NegativeEdit.class);
    if (negatives.size() > 1) {
      throw new IllegalStateException("the negative rules made " + negatives.size() + " edits (expected at most 1: each"
          + " checks `not NegativeEdit( )`) at " + stage + ": "
          + String.join(", ", negatives.stream().map(NegativeEdit::rule).toList()));
    }
    return new Round(
        inWalkOrder(Sessions.only(after, Violation.class)),
        decisions.get(0),
        negatives.isEmpty() ? null : negatives.get(0));
  }

  /**
   * Runs the rules over a query's facts with the given column policies and extra facts (a {@code
   * ClarificationRequest}), at a rewrite step; returns every fact after firing.
   */
  public List<Object> fireRound(
      QueryFacts query,
      List<PolicedColumn> columns,
      int step,
      List<Object> extra,
      Audit audit,
      String stage) {
    List<Object> facts = new ArrayList<>(query.refs());
    facts.addAll(tablesRead(query.tables()));
    facts.addAll(starsRead(query.starTables()));
    facts.addAll(columns);
    facts.add(query.shape());
    facts.add(new RewriteRound(step));
    facts.addAll(extra);
    return sessions.fire(facts, audit, stage);
  }

  /**
   * What the permission rules make of a query: the violations of its references, in walk order,
   * those of the query as a whole ({@code SELECT *}), and those of what it reads unnamed (the
   * columns of a {@code *}, a table read with no column named).
   */
  public record Judgement(
      List<Violation> violations, List<QueryViolation> queryViolations, List<ReadViolation> readViolations) {
    public boolean compliant() {
      return violations.isEmpty() && queryViolations.isEmpty() && readViolations.isEmpty();
    }
  }

  /** The permission rules' judgement of a query's facts, with the given column policies. */
  public Judgement judge(QueryFacts query, List<PolicedColumn> columns, Audit audit, String stage) {
    List<Object> facts = new ArrayList<>(query.refs());
    facts.addAll(tablesRead(query.tables()));
    facts.addAll(starsRead(query.starTables()));
    facts.addAll(columns);
    facts.add(query.shape());
    List<Object> after = sessions.fire(facts, audit, stage);
    List<QueryViolation> whole = Sessions.only(after, QueryViolation.class);
    whole.sort(Comparator.comparing(QueryViolation::reason));
    List<ReadViolation> reads = Sessions.only(after, ReadViolation.class);
    reads.sort(READ_ORDER);
    return new Judgement(
        inWalkOrder(Sessions.only(after, Violation.class)), List.copyOf(whole), List.copyOf(reads));
  }

  /** The violations of a list of references (permission rules only). */
  public List<Violation> violations(
      List<ColumnRef> refs, List<String> tables, DatabasePolicies policies, Audit audit, String stage) {
    return violations(refs, policies.policed(touchedTables(refs, tables)), audit, stage);
  }

  /** The violations of references to columns with the given policies (permission rules only). */
  public List<Violation> violations(
      List<ColumnRef> refs, List<PolicedColumn> columns, Audit audit, String stage) {
    List<Object> facts = new ArrayList<>(refs);
    facts.addAll(columns);
    return inWalkOrder(Sessions.only(sessions.fire(facts, audit, stage), Violation.class));
  }

  /** References plus the policed columns of every table the query touches. */
  private static List<Object> queryFacts(
      List<ColumnRef> refs, List<String> tables, DatabasePolicies policies) {
    List<Object> facts = new ArrayList<>(refs);
    facts.addAll(tablesRead(tables));
    facts.addAll(policies.policed(touchedTables(refs, tables)));
    return facts;
  }

  /** Read violations by table, then column (a whole table first), then reason. */
  private static final Comparator<ReadViolation> READ_ORDER =
      Comparator.comparing(ReadViolation::table)
          .thenComparing(ReadViolation::column, Comparator.nullsFirst(Comparator.naturalOrder()))
          .thenComparing(ReadViolation::reason);

  /** A fact for every schema table whose every column a {@code *} reads. */
  private static List<StarRead> starsRead(List<String> tables) {
    return tables.stream().map(t -> new StarRead(t.toLowerCase(java.util.Locale.ROOT))).distinct().toList();
  }

  /** A fact for every schema table the query reads. */
  private static List<TableRead> tablesRead(List<String> tables) {
    return tables.stream().map(t -> new TableRead(t.toLowerCase(java.util.Locale.ROOT))).distinct().toList();
  }

  /** The tables named, then the tables of the references, lower-cased, each once. */
  public static Set<String> touchedTables(List<ColumnRef> refs, List<String> tables) {
    Set<String> touched = new LinkedHashSet<>();
    tables.forEach(t -> touched.add(t.toLowerCase(java.util.Locale.ROOT)));
    refs.forEach(r -> touched.add(r.table()));
    return touched;
  }

  private static List<Violation> inWalkOrder(List<Violation> violations) {
    violations.sort(Comparator.comparingInt(v -> v.ref().position()));
    return violations;
  }
}
