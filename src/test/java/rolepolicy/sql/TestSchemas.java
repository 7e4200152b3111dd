package rolepolicy.sql;

import java.util.ArrayList;
import java.util.List;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.Schema;

/** A small schema in the shape of Spider's concert_singer. */
final class TestSchemas {
  private TestSchemas() {}

  static final Schema CONCERT_SINGER =
      schema(
          "concert_singer",
          new String[][] {
            {"stadium", "Stadium_ID", "Location", "Name", "Capacity"},
            {
              "singer", "Singer_ID", "Name", "Country", "Age", "Price", "Email", "Home Town", "Year"
            },
            {"concert", "concert_ID", "concert_Name", "Stadium_ID", "Year", "From"},
          });

  /** A small schema in the shape of BIRD's california_schools, with its awkward names. */
  static final Schema SCHOOLS =
      schema(
          "california_schools",
          new String[][] {
            {
              "frpm",
              "CDSCode",
              "County Name",
              "School Name",
              "Free Meal Count (K-12)",
              "Enrollment (K-12)",
              "Percent (%) Eligible FRPM (K-12)"
            },
            {"schools", "CDSCode", "School", "County", "OpenDate", "Virtual", "Phone"},
            {"satscores", "cds", "AvgScrMath", "NumTstTakr"},
          });

  /** Each row: the table name, then its columns. */
  static Schema schema(String dbId, String[][] tables) {
    List<String> names = new ArrayList<>();
    List<SchemaColumn> columns = new ArrayList<>();
    columns.add(new SchemaColumn(dbId, 0, "", "*", "text", false));
    for (String[] table : tables) {
      names.add(table[0]);
      for (int c = 1; c < table.length; c++) {
        columns.add(new SchemaColumn(dbId, columns.size(), table[0], table[c], "text", c == 1));
      }
    }
    return new Schema(dbId, names, columns);
  }
}
