package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.engine.PolicyPromptText;
import rolepolicy.engine.TextAnalyser;
import rolepolicy.model.Aggregate;
import rolepolicy.model.ColumnRef;
import rolepolicy.model.Policy;
import rolepolicy.model.Role;

/**
 * The prompt says what is scored: on every Spider dev question whose gold label is SQL, no sentence
 * of the policy text forbids a use its gold SQL makes, under each shipped profile. The prompt's text
 * is read here by its own words (a reader that knows the clause words, not the rules), so a text
 * that says more or less than the rules judge is caught. The hand-written paragraph the prompts had
 * before profiles is measured by the same reader.
 */
class PromptAgreesWithScoringTest {
  /** The policy paragraph the prompts carried before they were made from the rules. */
  static final String HAND_WRITTEN = """
      Every column has one policy:
      - Public: use it anywhere.
      - JoinOnly: use it only in a JOIN condition or a WHERE filter; never select it, never aggregate it.
      - AggOnly: use it only inside COUNT(...) or AVG(...); never select it bare, join on it or filter on it.
      - Hidden: never use it.""";

  /** The dev questions whose gold label is SQL, per profile (1,034 less its REFUSE labels). */
  private static final Map<String, Integer> SQL_LABELS =
      Map.of("spec-v1", 768, "strict", 741, "extended", 778, "analyst", 964, "internal", 772, "external", 652);

  @TempDir static Path dir;

  @Test
  void specV1PromptForbidsNoUseOfAGoldQuery() throws Exception {
    List<String> found = contradictions("spec-v1", PolicyPromptText.of(TestData.rules()));
    assertEquals(List.of(), found);
  }

  @Test
  void strictPromptForbidsNoUseOfAGoldQuery() throws Exception {
    List<String> found = contradictions("strict", PolicyPromptText.of(TestData.rules("strict")));
    assertEquals(List.of(), found);
  }

  /** A tier or extended changes the policies or the rewrites, not what a policy judges: spec-v1's prompt holds. */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"extended", "analyst", "internal", "external"})
  void aTiersPromptForbidsNoUseOfAGoldQuery(String tier) throws Exception {
    List<String> found = contradictions(tier, PolicyPromptText.of(TestData.rules(tier)));
    assertEquals(List.of(), found);
  }

  @Test
  void theHandWrittenParagraphContradictedSixtyFiveSpecV1GoldQueries() throws Exception {
    List<String> found = contradictions("spec-v1", HAND_WRITTEN);
    System.out.println("hand-written policy paragraph: " + found.size() + " contradicted dev questions");
    assertEquals(65, found.size(), String.join("\n", found));
  }

  /** The dev questions whose gold SQL makes a use the text forbids, with the use. */
  private static List<String> contradictions(String profile, String text) throws Exception {
    Path out = dir.resolve(profile);
    if (!Files.isDirectory(out)) {
      CommandRun run = CommandRun.of("generate", "--no-progress", "--spider", TestData.spiderDir().toString(),
          "--splits", "dev", "--profile", profile, "--out", out.toString());
      assertEquals(0, run.code(), run.err());
    }
    Reader reader = new Reader(text);
    List<String> found = new ArrayList<>();
    int sql = 0;
    for (JsonNode record : new ObjectMapper().readTree(out.resolve("dev.json").toFile())) {
      JsonNode gold = record.get("gold_label");
      if (!gold.get("type").asText().equals("SQL")) {
        continue;
      }
      sql++;
      TextAnalyser analyser = new TextAnalyser(TestData.schemas().get(record.get("db_id").asText()));
      for (ColumnRef ref : analyser.analyse(gold.get("sql").asText()).columnRefs()) {
        Policy policy = Policy.valueOf(record.get("column_policies").get(ref.column()).asText());
        String sentence = reader.forbidding(policy, ref.role(), ref.aggregate());
        if (sentence != null) {
          found.add(record.get("id").asText() + ": " + ref.column() + " (" + policy + ") " + ref.role()
              + (ref.aggregate().none() ? "" : " " + ref.aggregate()) + " — \"" + sentence + "\"");
          break;
        }
      }
    }
    assertEquals(SQL_LABELS.get(profile), sql, "dev questions whose gold label is SQL under " + profile);
    return found;
  }

  /** Reads a policy text by its words: which uses of a policy's column a sentence forbids. */
  static final class Reader {
    private final Map<Policy, List<String>> fragments = new TreeMap<>();
    private final List<Role> unchecked = new ArrayList<>();

    Reader(String text) {
      for (String line : text.lines().toList()) {
        for (Policy p : Policy.values()) {
          if (line.startsWith("- " + p + ": ")) {
            fragments.put(p, List.of(line.substring(p.name().length() + 4).replaceAll("\\.$", "").split("; ")));
          }
        }
        if (line.contains("not checked")) {
          String clauses = line.substring(0, line.indexOf(" are not checked") < 0
              ? line.indexOf(" is not checked") : line.indexOf(" are not checked"));
          if (clauses.contains("GROUP BY")) unchecked.add(Role.GroupKey);
          if (clauses.contains("HAVING")) unchecked.add(Role.HavingPred);
          if (clauses.contains("ORDER BY")) unchecked.add(Role.OrderKey);
        }
      }
    }

    /** The fragment of the text that forbids this use, or null. */
    String forbidding(Policy policy, Role role, Aggregate aggregate) {
      if (unchecked.contains(role)) {
        return null;
      }
      for (String fragment : fragments.getOrDefault(policy, List.of())) {
        if (forbids(fragment.toLowerCase(Locale.ROOT), role, aggregate)) {
          return fragment;
        }
      }
      return null;
    }

    private static boolean forbids(String f, Role role, Aggregate aggregate) {
      boolean aggregated = !aggregate.none();
      boolean countOrAvg = aggregate == Aggregate.COUNT || aggregate == Aggregate.AVG;
      boolean anywhere = f.contains("anywhere");
      if (f.startsWith("use it anywhere")) {
        return false;
      }
      if (f.startsWith("use it only inside count(...) or avg(...)")) {
        return !countOrAvg;
      }
      if (f.startsWith("use it only in")) {
        return !((f.contains("join") && role == Role.JoinCond) || (f.contains("where") && role == Role.WherePred));
      }
      if (f.equals("never use it") || f.equals("never use it anywhere")) {
        return true;
      }
      if (f.startsWith("aggregate it only with count or avg")) {
        return aggregated && !countOrAvg
            && (role == Role.AggArg || anywhere && (role == Role.HavingPred || role == Role.OrderKey));
      }
      if (!f.startsWith("never")) {
        throw new IllegalArgumentException("a sentence this reader does not know: " + f);
      }
      boolean bareKey = f.contains("bare in having or order by");
      return (f.contains("select it") && role == Role.SelectExpr)
          || (f.contains("aggregate it") && (role == Role.AggArg
              || anywhere && aggregated && (role == Role.HavingPred || role == Role.OrderKey)))
          || (f.contains("join") && role == Role.JoinCond)
          || (f.contains("filter on it") && role == Role.WherePred)
          || (f.contains("group by it") && role == Role.GroupKey)
          || (bareKey && !aggregated && (role == Role.HavingPred || role == Role.OrderKey));
    }
  }
}
