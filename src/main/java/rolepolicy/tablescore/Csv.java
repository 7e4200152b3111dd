package rolepolicy.tablescore;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Writes result tables as CSV (a header line, numbers in plain notation, NULL as an empty cell) and checks read ones. */
final class Csv {
  private static final CsvMapper MAPPER = new CsvMapper();

  private Csv() {}

  /**
   * Why a CSV file is not a whole table — a row with another number of fields than the header (a
   * file cut short ends so), or a quote left open — naming the line; null when every row fits.
   */
  static String raggedRow(Path file) throws IOException {
    CsvMapper reader = new CsvMapper().enable(CsvParser.Feature.WRAP_AS_ARRAY);
    int line = 1; // where the row being read starts
    try (MappingIterator<String[]> rows = reader.readerFor(String[].class).readValues(file.toFile())) {
      int header = -1;
      while (rows.hasNextValue()) {
        line = rows.getCurrentLocation().getLineNr();
        String[] row = rows.nextValue();
        if (header < 0) {
          header = row.length;
        } else if (row.length != header && !(row.length == 1 && row[0].isEmpty())) {
          return "line " + line + " has " + row.length + (row.length == 1 ? " field" : " fields") + ", the header "
              + header + " (is the file cut short?)";
        }
      }
      return null;
    } catch (JsonProcessingException e) {
      return "line " + line + ": " + e.getOriginalMessage().lines().findFirst().orElse("");
    }
  }

  static void write(Path file, List<String> columns, List<List<Object>> rows) throws IOException {
    CsvSchema.Builder schema = CsvSchema.builder().setUseHeader(true).setLineSeparator("\n");
    columns.forEach(schema::addColumn);
    List<List<String>> cells = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      List<String> line = new ArrayList<>(row.size());
      for (Object value : row) {
        String text = value instanceof String s ? s : CellText.text(value);
        line.add(text == null ? "" : text);
      }
      cells.add(line);
    }
    try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      MAPPER.writerFor(List.class).with(schema.build()).writeValues(writer).writeAll(cells);
    }
  }
}
