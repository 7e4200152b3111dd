package rolepolicy.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** What {@link Secrets#redact} masks: registered secrets, and the passwords of URLs, JDBC's among them. */
class SecretsTest {
  @Test
  void urlPasswordsAreMaskedAndTheRestKept() {
    assertEquals("cannot connect to jdbc:postgresql://bench:[redacted]@db.example:5432/spider (refused)",
        Secrets.redact("cannot connect to jdbc:postgresql://bench:s3cr%40t@db.example:5432/spider (refused)"));
    assertEquals("jdbc:postgresql://u:[redacted]@host/db", Secrets.redact("jdbc:postgresql://u:p@ss@host/db"));
    assertEquals("jdbc:postgresql://host/db?user=bench&password=[redacted]&ssl=true",
        Secrets.redact("jdbc:postgresql://host/db?user=bench&password=hunter22&ssl=true"));
    assertEquals("https://me:[redacted]@api.example/v1", Secrets.redact("https://me:token123@api.example/v1"));
    // no password: nothing to mask
    assertEquals("jdbc:postgresql://bench@host:5432/db and http://127.0.0.1:8000/v1 and a@b.c",
        Secrets.redact("jdbc:postgresql://bench@host:5432/db and http://127.0.0.1:8000/v1 and a@b.c"));
    assertEquals("SELECT name FROM users WHERE password='x' AND login=password",
        Secrets.redact("SELECT name FROM users WHERE password='x' AND login=password"), "SQL is no URL");
    assertNull(Secrets.redact(null));
  }

  @Test
  void aRegisteredSecretAndTheTokenOfItsSchemeAreMaskedWherever() {
    Secrets.register("Bearer tok-SecretsTest-91c2");
    Secrets.register("ab"); // too short to search for
    assertEquals("echo: Authorization=[redacted]; token [redacted]; ab",
        Secrets.redact("echo: Authorization=Bearer tok-SecretsTest-91c2; token tok-SecretsTest-91c2; ab"));
  }
}
