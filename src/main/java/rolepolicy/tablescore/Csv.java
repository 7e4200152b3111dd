package rolepolicy.tablescore;

import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Writes result tables as CSV: a header line, numbers in plain notation, NULL as an empty cell. */
final class Csv {
  private static final CsvMapper MAPPER = new CsvMapper();

  private Csv() {}

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
