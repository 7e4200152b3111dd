package rolepolicy.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.cli.CommandRun;
import rolepolicy.io.DatasetWriter;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.Schema;

/**
 * bench-decide on records in Role-Conditioned Refusals' form of the Spider databases whose column
 * names are not identifiers ({@code home town}, {@code %_change_2007}, {@code 18_49_rating_share},
 * {@code eg agree objectives}), their schema_ddl leaving them unquoted as the dataset does: it runs,
 * and decide agrees with PostgreSQL on every record PostgreSQL answers on privileges.
 */
class UnquotedNamesBenchIT {
  private static final List<String> DATABASES = List.of("perpetrator", "aircraft", "tvshow", "tracking_grants_for_research");

  @TempDir Path dir;

  @Test
  void benchDecideRunsOnUnquotedNamesThatAreNotIdentifiersAndAgreesWithPostgresql() throws Exception {
    List<String> lines = new ArrayList<>();
    for (String db : DATABASES) {
      Schema spider = TestData.schemas().get(db);
      Schema schema = new Schema(db, spider.tables().stream().map(t -> t.toLowerCase(Locale.ROOT)).toList(),
          spider.columns().stream().map(c -> new SchemaColumn(db, c.index(), c.table().toLowerCase(Locale.ROOT),
              c.name().toLowerCase(Locale.ROOT), c.type(), c.primaryKey())).toList());
      StringBuilder ddl = new StringBuilder();
      for (String table : schema.tables()) {
        ddl.append("CREATE TABLE ").append(table).append(" (").append(String.join(", ", schema.columnsOf(table).stream()
            .map(c -> c.name() + (c.type().equals("number") ? " double precision" : " text")).toList())).append(");\n");
      }
      String grants = PaperUsers.all(PaperUsers.grants(schema));
      Set<String> queries = new LinkedHashSet<>();
      for (String file : List.of("train_spider.json", "dev.json")) {
        for (JsonNode q : DatasetWriter.JSON.readTree(TestData.spiderDir().resolve(file).toFile())) {
          if (q.get("db_id").asText().equals(db)) {
            queries.add(q.get("query").asText());
          }
        }
      }
      schema.tables().forEach(t -> queries.add("SELECT * FROM " + t));
      for (String query : queries) {
        for (String user : PaperUsers.USERS) {
          ObjectNode r = DatasetWriter.JSON.createObjectNode();
          r.put("db_id", db).put("user", user).put("query", query).put("question", "")
              .put("ground_truth_label", "[]").put("access_policy_sql", grants).put("schema_ddl", ddl.toString());
          lines.add(DatasetWriter.JSON.writeValueAsString(r));
        }
      }
    }
    String all = String.join("\n", lines);
    for (String name : List.of("home town text", "%_change_2007 ", "18_49_rating_share ", "eg agree objectives text")) {
      assertTrue(all.contains(name), name);
    }
    Path records = Files.write(dir.resolve("records.jsonl"), lines);

    CommandRun run = CommandRun.of("bench-decide", records.toString(), "--runs", "1", "--warmup", "0", "--threads", "1");
    assertEquals(0, run.code(), run.err());
    Matcher agreement = Pattern.compile("agreement: decide with PostgreSQL ([\\d,]+) of ([\\d,]+);.*?(?:rejected ([\\d,]+) for another reason)?\\n")
        .matcher(run.out());
    assertTrue(agreement.find(), run.out());
    int agree = number(agreement.group(1));
    int n = number(agreement.group(2));
    int rejected = agreement.group(3) == null ? 0 : number(agreement.group(3));
    assertEquals(lines.size(), n, run.out());
    assertTrue(agree >= n / 2, run.out()); // the rest: Spider's SQLite forms PostgreSQL rejects as the owner too
    assertEquals(n - rejected, agree, run.out());
  }

  private static int number(String text) {
    return Integer.parseInt(text.replace(",", ""));
  }
}
