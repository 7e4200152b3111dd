package rolepolicy.io;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/** JSON output: pretty-printed with LF line ends, so that files are byte-identical on re-runs. */
public final class DatasetWriter {
  public static final ObjectMapper JSON = new ObjectMapper();

  private static final DefaultPrettyPrinter PRETTY =
      new DefaultPrettyPrinter()
          .withObjectIndenter(new DefaultIndenter("  ", "\n"))
          .withArrayIndenter(new DefaultIndenter("  ", "\n"));

  private DatasetWriter() {}

  public static ObjectWriter pretty() {
    return JSON.writer(PRETTY).with(SerializationFeature.INDENT_OUTPUT);
  }

  /** A generator that streams a JSON array of records to a file. */
  public static JsonGenerator arrayWriter(Path file) {
    try {
      JsonGenerator out = JSON.getFactory().createGenerator(file.toFile(), com.fasterxml.jackson.core.JsonEncoding.UTF8);
      out.setPrettyPrinter(PRETTY.createInstance()); // its own: the printer keeps the nesting depth
      out.setCodec(JSON);
      out.writeStartArray();
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static void write(Path file, Object value) {
    try {
      java.nio.file.Files.writeString(file, pretty().writeValueAsString(value) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
