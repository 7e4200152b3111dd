package rolepolicy.html;

import java.util.Locale;

/** What every page of the tool shares: its style, escaping, and numbers as the pages write them. */
public final class Html {
  private Html() {}

  /** The page style, of every page. */
  public static final String STYLE =
      """
      body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;color:#202124;margin:0;background:#f8f9fa;font-size:14px;line-height:1.45}
      main{max-width:1280px;margin:0 auto;padding:16px 28px 48px}
      h1{font-size:26px;margin:18px 0 4px}h2{font-size:21px;margin:36px 0 8px;padding-top:12px;border-top:3px solid #3367d6}
      h3{font-size:16px;margin:24px 0 6px}p{margin:6px 0}
      .sub{color:#5f6368}.nav a{margin-right:14px;color:#3367d6;text-decoration:none}
      .cards{display:flex;flex-wrap:wrap;gap:12px;margin:10px 0}
      .card{background:#fff;border:1px solid #dadce0;border-radius:8px;padding:12px 16px;min-width:210px;flex:1}
      .card .big{font-size:28px;font-weight:bold}.card .what{color:#5f6368;font-size:13px}
      .card.in{border-left:6px solid #2e7d32}.card.out{border-left:6px solid #c62828}.card.info{border-left:6px solid #3367d6}
      .badge{display:inline-block;white-space:nowrap;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:bold;color:#fff;vertical-align:middle}
      .badge.in{background:#2e7d32}.badge.out{background:#c62828}
      .charts{display:flex;flex-wrap:wrap;gap:14px;align-items:flex-start;margin:8px 0}
      .charts img{background:#fff;border:1px solid #dadce0;border-radius:6px;max-width:100%;height:auto}
      table{border-collapse:collapse;background:#fff;margin:8px 0;font-size:13px}
      th,td{border:1px solid #dadce0;padding:4px 9px;text-align:left;vertical-align:top}
      th{background:#f1f3f4;font-weight:bold}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
      .finding{background:#fff;border:1px solid #dadce0;border-left:6px solid #c62828;border-radius:6px;padding:10px 14px;margin:10px 0}
      .finding .head{font-weight:bold}.ok{background:#fff;border:1px solid #dadce0;border-left:6px solid #2e7d32;border-radius:6px;padding:10px 14px}
      details{margin:10px 0}summary{cursor:pointer;color:#3367d6;font-weight:bold}
      code{background:#f1f3f4;padding:0 3px;border-radius:3px;font-size:12px}
      .row{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}.row>div{flex:1;min-width:380px}
      """;


  /** The text escaped for HTML. */
  public static String esc(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder out = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
  /** A number with thousands separators: 4,503. */
  public static String number(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** A percentage with one decimal: 27.2 %. */
  public static String pct(double percent) {
    return String.format(Locale.ROOT, "%.1f %%", percent);
  }}
