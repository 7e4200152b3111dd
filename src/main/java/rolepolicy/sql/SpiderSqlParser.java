package rolepolicy.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.arithmetic.Addition;
import net.sf.jsqlparser.expression.operators.arithmetic.Division;
import net.sf.jsqlparser.expression.operators.arithmetic.Multiplication;
import net.sf.jsqlparser.expression.operators.arithmetic.Subtraction;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.parser.ASTNodeAccess;
import net.sf.jsqlparser.parser.CCJSqlParserConstants;
import net.sf.jsqlparser.parser.CCJSqlParserTokenManager;
import net.sf.jsqlparser.parser.CCJSqlParserTreeConstants;
import net.sf.jsqlparser.parser.SimpleCharStream;
import net.sf.jsqlparser.parser.SimpleNode;
import net.sf.jsqlparser.parser.StringProvider;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.Distinct;
import net.sf.jsqlparser.statement.select.ExceptOp;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.GroupByElement;
import net.sf.jsqlparser.statement.select.IntersectOp;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperation;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.UnionOp;

/**
 * A fast parser for the SQL that Spider's queries are written in, building the object tree
 * JSqlParser builds for the same text, so that {@link QueryWalker} reads either alike. JSqlParser's
 * lookahead makes it slow; this reads each token once. It declines (returns null) whatever it does
 * not fully know, and {@link SqlAnalyzer} then parses the text with JSqlParser.
 *
 * <p>It reads one SELECT statement with an optional trailing semicolon: SELECT [DISTINCT], FROM
 * with tables and parenthesised queries (aliases with or without AS), JOIN, INNER JOIN, LEFT
 * [OUTER] JOIN with ON, and comma joins; WHERE, GROUP BY, HAVING, ORDER BY with ASC and DESC, LIMIT
 * n; UNION, INTERSECT, EXCEPT; conditions with AND, OR, NOT, the comparisons {@code = != <> < > <=
 * >=}, [NOT] IN, [NOT] LIKE, [NOT] BETWEEN; {@code + - * /}; count, max, min, sum and avg, with *
 * or DISTINCT; integers, decimals, negative numbers, 'strings' and "double-quoted names"
 * (JSqlParser reads them as columns). It declines comments, other quotes, keywords as names (except
 * a few checked ones), and every other SQLite form ({@code ==}, IS, GLOB, CASE, ...).
 *
 * <p>Syntax-tree nodes, with their first and last tokens, are set where the analysis reads text
 * spans: on SELECT items, columns and function calls. Tokens carry image, position and {@code next}
 * only.
 */
final class SpiderSqlParser {
  /** Token types of this parser's lexer. */
  private static final int WORD = 0;

  private static final int QUOTED_NAME = 1;
  private static final int STRING = 2;
  private static final int INTEGER = 3;
  private static final int DECIMAL = 4;
  private static final int SYMBOL = 5;

  /** The keywords of the grammar below; never names. */
  private static final Set<String> KEYWORDS =
      Set.of(
          "SELECT",
          "DISTINCT",
          "FROM",
          "AS",
          "JOIN",
          "INNER",
          "LEFT",
          "OUTER",
          "ON",
          "WHERE",
          "AND",
          "OR",
          "NOT",
          "IN",
          "LIKE",
          "BETWEEN",
          "GROUP",
          "BY",
          "HAVING",
          "ORDER",
          "ASC",
          "DESC",
          "LIMIT",
          "UNION",
          "INTERSECT",
          "EXCEPT");

  private static final Set<String> COMPARISONS = Set.of("=", "!=", "<>", "<", ">", "<=", ">=");

  /** The functions read (Spider's aggregates); JSqlParser reads some names as special forms. */
  private static final Set<String> FUNCTIONS = Set.of("COUNT", "MAX", "MIN", "SUM", "AVG");

  /**
   * JSqlParser keywords that Spider uses as table or column names and that JSqlParser reads as
   * names there (SpiderSqlParserTest checks each in every position this parser accepts it).
   */
  static final Set<String> KEYWORD_NAMES =
      Set.of(
          "ACTIVE",
          "BLOCK",
          "CHARACTER",
          "DATE",
          "LONG",
          "MATCH",
          "MEMBER",
          "MONTH",
          "NAME",
          "POSITION",
          "RANGE",
          "SHARE",
          "SHOW",
          "TEXT",
          "TIME",
          "TYPE",
          "YEAR");

  /** Whether JSqlParser's lexer reads a word (upper case) as a plain identifier. */
  private static final NameMemo<Boolean> PLAIN_WORDS = new NameMemo<>(SpiderSqlParser::lexesAsName);

  /** Thrown, without a stack trace, where the parser declines. */
  private static final class Decline extends RuntimeException {
    private static final Decline INSTANCE = new Decline();

    private Decline() {
      super(null, null, false, false);
    }
  }

  private final List<Token> tokens = new ArrayList<>();
  private final List<Integer> types = new ArrayList<>();
  /** Each WORD token upper-cased, else null: keywords are compared in upper case. */
  private final List<String> words = new ArrayList<>();
  private int at;

  private SpiderSqlParser() {}

  /** The query JSqlParser would build from the text, or null when this parser declines. */
  static Select parse(String sql) {
    SpiderSqlParser parser = new SpiderSqlParser();
    try {
      parser.tokenize(sql);
      Select select = parser.statement();
      return parser.at == parser.tokens.size() ? select : null;
    } catch (Decline e) {
      return null;
    }
  }

  // Lexer

  private void tokenize(String sql) {
    int line = 1;
    int lineStart = 0;
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (c == ' ' || c == '\t') {
        i++;
        continue;
      }
      if (c == '\n' || c == '\r') {
        i += c == '\r' && i + 1 < n && sql.charAt(i + 1) == '\n' ? 2 : 1;
        line++;
        lineStart = i;
        continue;
      }
      int start = i;
      int type;
      if (isLetter(c) || c == '_') {
        while (i < n
            && (isLetter(sql.charAt(i)) || isDigit(sql.charAt(i)) || sql.charAt(i) == '_')) {
          i++;
        }
        type = WORD;
      } else if (isDigit(c)) {
        while (i < n && isDigit(sql.charAt(i))) {
          i++;
        }
        type = INTEGER;
        if (i + 1 < n && sql.charAt(i) == '.' && isDigit(sql.charAt(i + 1))) {
          i++;
          while (i < n && isDigit(sql.charAt(i))) {
            i++;
          }
          type = DECIMAL;
        }
        if (i < n && (isLetter(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '.')) {
          throw Decline.INSTANCE; // 1e5, 1., 2nd: read differently or not at all
        }
        if (type == INTEGER && i - start > 18) {
          throw Decline.INSTANCE; // beyond a long
        }
      } else if (c == '\'' || c == '"') {
        i = quoteEnd(sql, i, c);
        type = c == '\'' ? STRING : QUOTED_NAME;
      } else if (c == '!' || c == '<' || c == '>') {
        i++;
        if (i < n && (sql.charAt(i) == '=' || (c == '<' && sql.charAt(i) == '>'))) {
          i++;
        } else if (c == '!') {
          throw Decline.INSTANCE;
        }
        type = SYMBOL;
      } else if (c == '=' && i + 1 < n && sql.charAt(i + 1) == '=') {
        throw Decline.INSTANCE; // SQLite's ==: see SqliteOperators
      } else if ("=(),.*+-/;".indexOf(c) >= 0) {
        if ((c == '-' || c == '/') && i + 1 < n && sql.charAt(i + 1) == c) {
          throw Decline.INSTANCE; // a comment
        }
        if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
          throw Decline.INSTANCE;
        }
        i++;
        type = SYMBOL;
      } else {
        throw Decline.INSTANCE;
      }
      boolean go = type == WORD && i - start == 2 && sql.regionMatches(true, start, "go", 0, 2);
      if ((c == '/' || go)
          && isLineBreakAt(sql, start - 1)
          && (i == n || isLineBreakAt(sql, i))) {
        throw Decline.INSTANCE; // "\n/\n" and "\ngo\n" end a statement to JSqlParser
      }
      Token token = new Token();
      token.image = sql.substring(start, i);
      token.beginLine = line;
      token.endLine = line;
      token.beginColumn = start - lineStart + 1;
      token.endColumn = i - lineStart;
      if (!tokens.isEmpty()) {
        tokens.get(tokens.size() - 1).next = token;
      }
      tokens.add(token);
      types.add(type);
      words.add(type == WORD ? token.image.toUpperCase(Locale.ROOT) : null);
    }
  }

  /** The offset after a quoted string or name of printable ASCII without escapes. */
  private static int quoteEnd(String sql, int start, char quote) {
    for (int i = start + 1; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (c == quote) {
        if ((i + 1 < sql.length() && sql.charAt(i + 1) == quote)
            || (quote == '"' && i == start + 1)) {
          throw Decline.INSTANCE; // a doubled quote, or an empty name
        }
        return i + 1;
      }
      if (c == '\\' || c < ' ' || c > '~') {
        throw Decline.INSTANCE; // escapes, line ends, tabs, non-ASCII
      }
    }
    throw Decline.INSTANCE;
  }

  private static boolean isLineBreakAt(String sql, int i) {
    return i >= 0 && i < sql.length() && (sql.charAt(i) == '\n' || sql.charAt(i) == '\r');
  }

  private static boolean isLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  // Token access

  private Token token(int offset) {
    return at + offset < tokens.size() ? tokens.get(at + offset) : null;
  }

  private int type(int offset) {
    return at + offset < tokens.size() ? types.get(at + offset) : -1;
  }

  /** Whether the token at offset is the keyword, given in upper case. */
  private boolean isKeyword(int offset, String keyword) {
    return type(offset) == WORD && words.get(at + offset).equals(keyword);
  }

  private boolean isSymbol(int offset, String symbol) {
    return type(offset) == SYMBOL && token(offset).image.equals(symbol);
  }

  private boolean acceptKeyword(String keyword) {
    if (isKeyword(0, keyword)) {
      at++;
      return true;
    }
    return false;
  }

  private boolean acceptSymbol(String symbol) {
    if (isSymbol(0, symbol)) {
      at++;
      return true;
    }
    return false;
  }

  private Token expectKeyword(String keyword) {
    if (!isKeyword(0, keyword)) {
      throw Decline.INSTANCE;
    }
    return tokens.get(at++);
  }

  private Token expectSymbol(String symbol) {
    if (!isSymbol(0, symbol)) {
      throw Decline.INSTANCE;
    }
    return tokens.get(at++);
  }

  private Token previous() {
    return tokens.get(at - 1);
  }

  /** Whether the token at offset is a name: a plain identifier or one of the keyword names. */
  private boolean isName(int offset) {
    if (type(offset) != WORD) {
      return false;
    }
    String word = words.get(at + offset);
    if (KEYWORDS.contains(word)) {
      return false;
    }
    if (KEYWORD_NAMES.contains(word)) {
      // DATE '2000-01-01', POSITION(...): JSqlParser reads special forms
      return type(offset + 1) != STRING && !isSymbol(offset + 1, "(");
    }
    return isPlainWord(word);
  }

  /** Whether the token at offset is a name that may stand as an alias without AS. */
  private boolean isPlainName(int offset) {
    return isName(offset) && !KEYWORD_NAMES.contains(words.get(at + offset));
  }

  private String expectName() {
    if (!isName(0)) {
      throw Decline.INSTANCE;
    }
    return tokens.get(at++).image;
  }

  private static boolean isPlainWord(String word) {
    return PLAIN_WORDS.get(word);
  }

  /** Whether JSqlParser's lexer reads the word as an identifier rather than a keyword. */
  private static boolean lexesAsName(String word) {
    CCJSqlParserTokenManager lexer =
        new CCJSqlParserTokenManager(new SimpleCharStream(new StringProvider(word)));
    Token first = lexer.getNextToken();
    return first.kind == CCJSqlParserConstants.S_IDENTIFIER
        && first.image.equals(word)
        && lexer.getNextToken().kind == CCJSqlParserConstants.EOF;
  }

  private static void node(ASTNodeAccess element, int id, Token first, Token last) {
    SimpleNode node = new SimpleNode(id);
    node.jjtSetFirstToken(first);
    node.jjtSetLastToken(last);
    node.jjtSetValue(element);
    element.setASTNode(node);
  }

  // Queries

  private Select statement() {
    Select select = query();
    acceptSymbol(";");
    return select;
  }

  /** Parts joined by UNION, INTERSECT or EXCEPT, then ORDER BY and LIMIT of the whole. */
  private Select query() {
    List<Select> parts = new ArrayList<>();
    List<SetOperation> operations = new ArrayList<>();
    parts.add(queryPart());
    while (true) {
      SetOperation operation;
      if (acceptKeyword("UNION")) {
        operation = new UnionOp();
      } else if (acceptKeyword("INTERSECT")) {
        operation = new IntersectOp();
      } else if (acceptKeyword("EXCEPT")) {
        operation = new ExceptOp();
      } else {
        break;
      }
      if (isKeyword(0, "ALL") || isKeyword(0, "DISTINCT")) {
        throw Decline.INSTANCE;
      }
      operations.add(operation);
      parts.add(queryPart());
    }
    Select select;
    if (operations.isEmpty()) {
      select = parts.get(0);
      if (select instanceof ParenthesedSelect && (isKeyword(0, "ORDER") || isKeyword(0, "LIMIT"))) {
        throw Decline.INSTANCE;
      }
    } else {
      SetOperationList list = new SetOperationList();
      list.setSelects(parts);
      list.setOperations(operations);
      select = list;
    }
    if (acceptKeyword("ORDER")) {
      expectKeyword("BY");
      select.setOrderByElements(orderBy());
    } else if (!operations.isEmpty() && isKeyword(0, "LIMIT")) {
      throw Decline.INSTANCE; // JSqlParser gives a LIMIT without ORDER BY to the last part
    }
    if (acceptKeyword("LIMIT")) {
      if (type(0) != INTEGER) {
        throw Decline.INSTANCE;
      }
      Limit limit = new Limit();
      limit.setRowCount(new LongValue(tokens.get(at++).image));
      select.setLimit(limit);
    }
    return select;
  }

  private Select queryPart() {
    if (isSymbol(0, "(")) {
      return parenthesedQuery();
    }
    return plainSelect();
  }

  private ParenthesedSelect parenthesedQuery() {
    expectSymbol("(");
    if (!isKeyword(0, "SELECT")) {
      throw Decline.INSTANCE; // a join, or ((SELECT ...)), which JSqlParser nests otherwise
    }
    ParenthesedSelect parenthesed = new ParenthesedSelect();
    parenthesed.setSelect(query());
    expectSymbol(")");
    return parenthesed;
  }

  private PlainSelect plainSelect() {
    expectKeyword("SELECT");
    PlainSelect select = new PlainSelect();
    if (acceptKeyword("DISTINCT")) {
      select.setDistinct(new Distinct());
    }
    List<SelectItem<?>> items = new ArrayList<>();
    do {
      items.add(selectItem());
    } while (acceptSymbol(","));
    select.setSelectItems(items);
    expectKeyword("FROM");
    select.setFromItem(fromItem());
    List<Join> joins = new ArrayList<>();
    for (Join join = join(); join != null; join = join()) {
      joins.add(join);
    }
    if (!joins.isEmpty()) {
      select.setJoins(joins);
    }
    if (acceptKeyword("WHERE")) {
      select.setWhere(expression());
    }
    if (acceptKeyword("GROUP")) {
      expectKeyword("BY");
      if (isSymbol(0, "(")) {
        throw Decline.INSTANCE; // GROUP BY (a): JSqlParser takes the parenthesised list as the list
      }
      List<Expression> expressions = new ArrayList<>();
      do {
        expressions.add(expression());
      } while (acceptSymbol(","));
      GroupByElement groupBy = new GroupByElement();
      groupBy.setGroupByExpressions(new ExpressionList<>(expressions));
      select.setGroupByElement(groupBy);
    }
    if (acceptKeyword("HAVING")) {
      select.setHaving(expression());
    }
    return select;
  }

  private SelectItem<?> selectItem() {
    Token first = token(0);
    Expression expression;
    if (acceptSymbol("*")) {
      expression = new AllColumns();
    } else if (isName(0) && isSymbol(1, ".") && isSymbol(2, "*")) {
      Table table = new Table(expectName());
      at += 2;
      expression = new AllTableColumns(table, null, null, null);
    } else {
      expression = expression();
    }
    SelectItem<?> item = new SelectItem<>(expression);
    item.setAlias(alias());
    node(item, CCJSqlParserTreeConstants.JJTSELECTITEM, first, previous());
    return item;
  }

  /** {@code AS name} or a plain name, or null. */
  private Alias alias() {
    if (acceptKeyword("AS")) {
      return new Alias(expectName(), true);
    }
    if (isPlainName(0)) {
      return new Alias(tokens.get(at++).image, false);
    }
    return null;
  }

  private FromItem fromItem() {
    if (isSymbol(0, "(")) {
      ParenthesedSelect query = parenthesedQuery();
      requireOutputNames(query);
      query.setAlias(alias());
      return query;
    }
    Table table = new Table(expectName());
    if (isSymbol(0, ".")) {
      throw Decline.INSTANCE; // schema.table
    }
    table.setAlias(alias());
    return table;
  }

  /**
   * Declines a FROM query whose output would be named by an item's text: the analysis names it from
   * the item's syntax-tree node, which JSqlParser sets on some expressions only.
   */
  private static void requireOutputNames(Select query) {
    if (query instanceof ParenthesedSelect parenthesed) {
      requireOutputNames(parenthesed.getSelect());
    } else if (query instanceof SetOperationList list) {
      requireOutputNames(list.getSelects().get(0));
    } else {
      for (SelectItem<?> item : ((PlainSelect) query).getSelectItems()) {
        Expression expression = item.getExpression();
        if (item.getAlias() == null
            && !(expression instanceof Column
                || expression instanceof AllColumns
                || expression instanceof Function)) {
          throw Decline.INSTANCE;
        }
      }
    }
  }

  /** A comma or a JOIN and the item it joins, or null. */
  private Join join() {
    Join join = new Join();
    if (acceptSymbol(",")) {
      join.setSimple(true);
      join.setRightItem(fromItem());
      return join;
    }
    if (acceptKeyword("INNER")) {
      join.setInner(true);
    } else if (acceptKeyword("LEFT")) {
      join.setLeft(true);
      if (acceptKeyword("OUTER")) {
        join.setOuter(true);
      }
    } else if (!isKeyword(0, "JOIN")) {
      return null;
    }
    expectKeyword("JOIN");
    join.setRightItem(fromItem());
    if (acceptKeyword("ON")) {
      join.addOnExpression(expression());
    }
    return join;
  }

  private List<OrderByElement> orderBy() {
    List<OrderByElement> elements = new ArrayList<>();
    do {
      OrderByElement element = new OrderByElement();
      element.setExpression(expression());
      if (acceptKeyword("DESC")) {
        element.setAsc(false);
        element.setAscDescPresent(true);
      } else if (acceptKeyword("ASC")) {
        element.setAscDescPresent(true);
      }
      elements.add(element);
    } while (acceptSymbol(","));
    return elements;
  }

  // Expressions, loosest first, as JSqlParser nests them

  private Expression expression() {
    Expression left = and();
    while (acceptKeyword("OR")) {
      left = new OrExpression(left, and());
    }
    return left;
  }

  private Expression and() {
    Expression left = condition();
    while (acceptKeyword("AND")) {
      left = new AndExpression(left, condition());
    }
    return left;
  }

  private Expression condition() {
    if (acceptKeyword("NOT")) {
      if (isKeyword(0, "NOT") || isSymbol(0, "(")) {
        throw Decline.INSTANCE;
      }
      return new NotExpression(condition());
    }
    Expression left = sum();
    Expression condition;
    BinaryExpression comparison = comparison();
    if (comparison != null) {
      comparison.setLeftExpression(left);
      comparison.setRightExpression(sum());
      condition = comparison;
    } else {
      boolean not = acceptKeyword("NOT");
      if (acceptKeyword("IN")) {
        if (!isSymbol(0, "(")) {
          throw Decline.INSTANCE;
        }
        // JSqlParser reads the rest of the expression as the IN's right operand
        InExpression in = new InExpression(left, expression());
        in.setNot(not);
        condition = in;
      } else if (acceptKeyword("LIKE")) {
        LikeExpression like = new LikeExpression();
        like.setLeftExpression(left);
        like.setRightExpression(sum());
        like.setNot(not);
        like.setLikeKeyWord(LikeExpression.KeyWord.LIKE);
        condition = like;
      } else if (acceptKeyword("BETWEEN")) {
        Between between = new Between();
        between.setLeftExpression(left);
        between.setBetweenExpressionStart(betweenOperand());
        expectKeyword("AND");
        between.setBetweenExpressionEnd(betweenOperand());
        between.setNot(not);
        condition = between;
      } else if (not) {
        throw Decline.INSTANCE;
      } else {
        condition = left;
      }
    }
    if ((type(0) == SYMBOL && COMPARISONS.contains(token(0).image))
        || isKeyword(0, "NOT")
        || isKeyword(0, "IN")
        || isKeyword(0, "LIKE")
        || isKeyword(0, "BETWEEN")) {
      throw Decline.INSTANCE; // chained conditions
    }
    return condition;
  }

  /**
   * A bound of BETWEEN: a number, a string, a column or a whole parenthesised query, as Spider
   * writes them. JSqlParser reads BETWEEN's bounds with a bounded lookahead and rejects longer
   * ones ({@code x BETWEEN c + 2 + 2 + T.e AND 1}, {@code x BETWEEN (SELECT ...) + 1 AND 2},
   * {@code x BETWEEN 1 AND max(a, (SELECT ...))}), so every other bound is declined.
   */
  private Expression betweenOperand() {
    Expression operand =
        isSymbol(0, "(") && isKeyword(1, "SELECT") ? parenthesedQuery() : sum();
    if (!(operand instanceof ParenthesedSelect
            || operand instanceof Column
            || operand instanceof LongValue
            || operand instanceof DoubleValue
            || operand instanceof StringValue
            || operand instanceof SignedExpression)
        || isSymbol(0, "+")
        || isSymbol(0, "-")
        || isSymbol(0, "*")
        || isSymbol(0, "/")) {
      throw Decline.INSTANCE;
    }
    return operand;
  }

  /** The comparison operator at the current token, consumed, or null. */
  private BinaryExpression comparison() {
    if (type(0) != SYMBOL || !COMPARISONS.contains(token(0).image)) {
      return null;
    }
    BinaryExpression comparison =
        switch (token(0).image) {
          case "=" -> new EqualsTo();
          case "!=", "<>" -> new NotEqualsTo(token(0).image);
          case "<" -> new MinorThan();
          case ">" -> new GreaterThan();
          case "<=" -> new MinorThanEquals();
          default -> new GreaterThanEquals();
        };
    at++;
    return comparison;
  }

  private Expression sum() {
    Expression left = product();
    while (true) {
      BinaryExpression operation;
      if (acceptSymbol("+")) {
        operation = new Addition();
      } else if (acceptSymbol("-")) {
        operation = new Subtraction();
      } else {
        return left;
      }
      operation.setLeftExpression(left);
      operation.setRightExpression(product());
      left = operation;
    }
  }

  private Expression product() {
    Expression left = primary();
    while (true) {
      BinaryExpression operation;
      if (acceptSymbol("*")) {
        operation = new Multiplication();
      } else if (acceptSymbol("/")) {
        operation = new Division();
      } else {
        return left;
      }
      operation.setLeftExpression(left);
      operation.setRightExpression(primary());
      left = operation;
    }
  }

  private Expression primary() {
    Token first = token(0);
    switch (type(0)) {
      case INTEGER:
        at++;
        return new LongValue(first.image);
      case DECIMAL:
        at++;
        return new DoubleValue(first.image);
      case STRING:
        at++;
        return new StringValue(first.image);
      case QUOTED_NAME:
        at++;
        return column(null, first);
      case SYMBOL:
        if (acceptSymbol("-")) {
          if (type(0) != INTEGER && type(0) != DECIMAL) {
            throw Decline.INSTANCE;
          }
          return new SignedExpression('-', primary());
        }
        if (isSymbol(0, "(") && !isSymbol(1, "(")) { // ((...)): JSqlParser nests it otherwise
          return isKeyword(1, "SELECT") ? parenthesedQuery() : parenthesedList();
        }
        throw Decline.INSTANCE;
      default:
        if (isSymbol(1, "(")) {
          return function();
        }
        String name = expectName();
        if (acceptSymbol(".")) {
          Table qualifier = new Table(name);
          Token last = token(0);
          expectName();
          if (isSymbol(0, ".")) {
            throw Decline.INSTANCE; // table.column.more
          }
          return column(qualifier, first, last);
        }
        return column(null, first);
    }
  }

  private Column column(Table qualifier, Token name) {
    return column(qualifier, name, name);
  }

  private Column column(Table qualifier, Token first, Token name) {
    Column column = new Column(qualifier, name.image);
    node(column, CCJSqlParserTreeConstants.JJTCOLUMN, first, name);
    return column;
  }

  private ParenthesedExpressionList<Expression> parenthesedList() {
    expectSymbol("(");
    List<Expression> expressions = new ArrayList<>();
    do {
      expressions.add(expression());
    } while (acceptSymbol(","));
    expectSymbol(")");
    return new ParenthesedExpressionList<>(expressions);
  }

  /**
   * count, max, min, sum or avg: {@code count(*)}, {@code count(DISTINCT x)}, {@code max(a, b)}.
   */
  private Function function() {
    Token name = token(0);
    if (type(0) != WORD || !FUNCTIONS.contains(words.get(at))) {
      throw Decline.INSTANCE;
    }
    at += 2;
    Function function = new Function();
    function.setName(name.image);
    List<Expression> arguments = new ArrayList<>();
    if (isSymbol(0, "*") && isSymbol(1, ")")) {
      at++;
      arguments.add(new AllColumns());
    } else {
      function.setDistinct(acceptKeyword("DISTINCT"));
      if (isSymbol(0, "(")) {
        throw Decline.INSTANCE; // avg((x)): JSqlParser keeps the parenthesised list itself
      }
      do {
        arguments.add(expression());
      } while (acceptSymbol(","));
    }
    function.setParameters(new ExpressionList<>(arguments));
    expectSymbol(")");
    node(function, CCJSqlParserTreeConstants.JJTFUNCTION, name, previous());
    return function;
  }
}
