package rolepolicy.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.model.QueryFacts;
import rolepolicy.model.TableRead;

/** The rules see every table a query reads, named by a column reference or not. */
class TableReadTest {
  @Test
  void everyTableReadIsAFactEvenWhereNoColumnIsNamed() {
    // COUNT(*) names no column of concert; the nested query reads singer
    QueryFacts facts = TextQuery.of(new TextAnalyser(TestData.schemas().get("concert_singer")),
        "SELECT count(*) FROM concert WHERE Stadium_ID IN (SELECT Stadium_ID FROM stadium)"
            + " AND concert_ID IN (SELECT concert_ID FROM singer_in_concert)").facts();
    List<Object> after = TestData.engine().fireRound(facts, List.of(), 0, List.of(), null, "test");
    Set<TableRead> read = after.stream().filter(TableRead.class::isInstance).map(TableRead.class::cast)
        .collect(Collectors.toSet());
    assertEquals(Set.of(new TableRead("concert"), new TableRead("stadium"), new TableRead("singer_in_concert")), read);
  }
}
