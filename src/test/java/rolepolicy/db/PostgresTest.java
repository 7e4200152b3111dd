package rolepolicy.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import rolepolicy.io.InputException;

class PostgresTest {
  @Test
  void aPasswordInAJdbcUrlIsRedacted() {
    assertEquals("jdbc:postgresql://ana:[redacted]@db:5432/spider?ssl=true",
        rolepolicy.io.Secrets.redact("jdbc:postgresql://ana:s3cret@db:5432/spider?ssl=true"));
    assertEquals("jdbc:postgresql://db/spider?user=ana&password=[redacted]&ssl=true",
        rolepolicy.io.Secrets.redact("jdbc:postgresql://db/spider?user=ana&password=s3cret&ssl=true"));
    assertEquals("jdbc:postgresql://db/spider?PASSWORD=[redacted]", rolepolicy.io.Secrets.redact("jdbc:postgresql://db/spider?PASSWORD=s3cret"));
    assertEquals("jdbc:postgresql://db/spider?user=ana", rolepolicy.io.Secrets.redact("jdbc:postgresql://db/spider?user=ana"));
  }

  @Test
  void aConnectionErrorShowsNoPassword() {
    // port 1: nothing listens there
    InputException e = assertThrows(InputException.class,
        () -> Postgres.at("jdbc:postgresql://127.0.0.1:1/spider?user=ana&password=s3cret&connectTimeout=5").connect());
    assertTrue(e.getMessage().contains("cannot connect"), e.getMessage());
    assertFalse(e.getMessage().contains("s3cret"), e.getMessage());
    InputException notPostgres = assertThrows(InputException.class, () -> Postgres.at("jdbc:mysql://ana:s3cret@db/x"));
    assertFalse(notPostgres.getMessage().contains("s3cret"), notPostgres.getMessage());
  }
}
