package rolepolicy.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import rolepolicy.io.InputException;

/**
 * Predictions taken from a generated split's own fields: a file for trying {@code evaluate}, and
 * fixed points to read a model's figures against (the gold labels score 100 %, the negatives
 * break a policy wherever a record has one).
 */
public final class ReferencePredictions {
  /** Which field of a record becomes its prediction. */
  public enum Source {
    /** The benchmark's own SQL, {@code original_sql}. */
    ORIGINAL,
    /** The gold label: its SQL, or REFUSE. */
    GOLD,
    /** The first negative example's SQL; the original SQL where a record has none. */
    NEGATIVE,
    /** REFUSE everywhere. */
    REFUSE;

    public static Source of(String name) {
      try {
        return valueOf(name.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new InputException("unknown source '" + name + "': original, gold, negative or refuse");
      }
    }
  }

  /** One line of a JSON Lines predictions file. */
  public record Prediction(String id, String prediction) {}

  private ReferencePredictions() {}

  public static List<Prediction> of(JsonNode records, Source source, String where) {
    List<Prediction> out = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      JsonNode r = records.get(i);
      String id = r.path("id").asText(null);
      if (id == null) {
        throw new InputException(where + ": record #" + (i + 1) + " has no id: not a generated split");
      }
      String original = r.path("original_sql").asText("");
      String prediction = switch (source) {
        case ORIGINAL -> original;
        case GOLD -> r.at("/gold_label/type").asText().equals("REFUSE") ? "REFUSE" : r.at("/gold_label/sql").asText("");
        case NEGATIVE -> r.at("/negative_examples/0/sql").asText(original);
        case REFUSE -> "REFUSE";
      };
      out.add(new Prediction(id, prediction));
    }
    return out;
  }
}
