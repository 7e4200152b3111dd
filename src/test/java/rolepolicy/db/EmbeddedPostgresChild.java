package rolepolicy.db;

/** Starts the embedded PostgreSQL, prints its folder, postmaster and watchdog, and waits to be killed. */
public final class EmbeddedPostgresChild {
  private EmbeddedPostgresChild() {}

  public static void main(String[] args) throws Exception {
    Postgres pg = Postgres.embedded();
    System.out.println(pg.folder() + "\t" + Postgres.postmasterPid(pg.folder().resolve("data")) + "\t" + pg.watchdog().pid());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
