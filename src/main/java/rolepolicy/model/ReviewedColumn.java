package rolepolicy.model;

/**
 * A column as the review rules see it ({@code rules/review.drl}).
 *
 * @param column the column key, {@code table.column} lower-cased
 * @param table the table's name as the schema writes it
 * @param name the column's name as the schema writes it
 * @param policy its final policy
 * @param keyColumn whether it is in a primary key or a foreign key
 * @param keyRole its key roles in words ({@code PK,referenced}, {@code FK->Pets.PetID}), or {@code -}
 */
public record ReviewedColumn(
    String column, String table, String name, Policy policy, boolean keyColumn, String keyRole) {}
