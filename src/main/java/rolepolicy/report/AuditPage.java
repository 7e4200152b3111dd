package rolepolicy.report;

import static rolepolicy.html.Html.esc;

import rolepolicy.html.Html;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rolepolicy.engine.Audit;
import rolepolicy.generate.AuditTrail;
import rolepolicy.report.SplitRecord.Negative;
import rolepolicy.report.SplitRecord.Step;
import rolepolicy.report.SplitRecord.Violation;

/**
 * The audit page: every record of every split, searchable and filterable by database, rule,
 * policy, role and outcome; a record's card shows its SQL with the violating columns marked, the
 * chain of rules that fired, the rewrite steps and the negative as edits of the SQL. One
 * self-contained file: the records are compact JSON in a {@code <script type="application/json">},
 * cards are built when opened, filters run in plain JavaScript. The URL's fragment holds the
 * filters ({@code audit.html#split=dev&rule=...&open=dev_0003}), which is how the QA report links
 * to the records behind its figures.
 */
public final class AuditPage {
  public static final String FILE = "audit.html";

  private static final ObjectMapper JSON = new ObjectMapper();

  private AuditPage() {}

  /** One split: its records and, where the folder has it, its audit trail (possibly empty). */
  public record Split(String name, List<SplitRecord> records, Map<String, AuditTrail.Line> audit) {}

  public static String render(List<Split> splits) {
    List<Object> data = new ArrayList<>();
    for (Split split : splits) {
      data.add(splitData(split));
    }
    String json;
    try {
      json = JSON.writeValueAsString(data).replace("</", "<\\/");
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    return PAGE_HEAD.replace("/*STYLE*/", Html.STYLE + STYLE)
        + "<script type=\"application/json\" id=\"data\">" + json + "</script>\n<script>\n" + SCRIPT + "</script>\n</body>\n</html>\n";
  }

  /** Strings used many times (rules, databases, stages) are listed once and referred to by index. */
  private static final class Index {
    final Map<String, Integer> ids = new LinkedHashMap<>();

    int of(String text) {
      return ids.computeIfAbsent(text == null ? "" : text, k -> ids.size());
    }
  }

  private static Map<String, Object> splitData(Split split) {
    Index rules = new Index();
    Index dbs = new Index();
    Index stages = new Index();
    List<Object> records = new ArrayList<>(split.records().size());
    for (SplitRecord r : split.records()) {
      List<Object> violations = new ArrayList<>();
      for (Violation v : r.violations()) {
        violations.add(List.of(v.column(), v.role(), v.policy(), rules.of(v.rule()), v.aggId()));
      }
      List<Object> steps = new ArrayList<>();
      String before = r.originalSql();
      for (Step s : r.gold().steps()) {
        String after = s.sql() == null ? before : s.sql();
        SqlDiff d = SqlDiff.of(before, after);
        steps.add(List.of(s.rule(), rules.of(s.ruleName()), after, d.prefix(), d.suffix()));
        before = after;
      }
      List<Object> gold =
          List.of(r.gold().type(), r.gold().reason() == null ? "" : r.gold().reason(), rules.of(r.gold().rule()), steps);
      Object negative = 0;
      if (!r.negatives().isEmpty()) {
        Negative n = r.negatives().get(0);
        SqlDiff d = SqlDiff.of(r.originalSql(), n.sql());
        negative = List.of(n.sql(), rules.of(n.ruleName() == null ? n.rule() : n.ruleName()),
            n.edit() == null ? "" : n.edit(), d.prefix(), d.suffix());
      }
      List<Object> chain = new ArrayList<>();
      AuditTrail.Line line = split.audit().get(r.id());
      if (line != null) {
        for (Audit.Firing f : line.firings()) {
          chain.add(List.of(stages.of(f.stage()), rules.of(f.rule()), String.join(" | ", f.matched())));
        }
      }
      records.add(List.of(r.id(), dbs.of(r.dbId()), r.question() == null ? "" : r.question(), r.originalSql(),
          outcome(r), violations, gold, negative, chain));
    }
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("split", split.name());
    data.put("audited", !split.audit().isEmpty());
    data.put("rules", List.copyOf(rules.ids.keySet()));
    data.put("dbs", List.copyOf(dbs.ids.keySet()));
    data.put("stages", List.copyOf(stages.ids.keySet()));
    data.put("records", records);
    return data;
  }

  /** A record's outcome as the page filters it: compliant, rewritten, or REFUSE and its reason. */
  public static String outcome(SplitRecord r) {
    if (r.refused()) {
      return "REFUSE " + (r.gold().reason() == null ? "" : r.gold().reason());
    }
    return r.gold().steps().isEmpty() ? "compliant" : "rewritten";
  }

  /** A link to the audit page filtered by {@code key=value} within a split. */
  public static String link(String split, String key, String value, String text) {
    return "<a href=\"" + FILE + "#split=" + encode(split) + "&amp;" + key + "=" + encode(value) + "\">" + text + "</a>";
  }

  private static String encode(String value) {
    return java.net.URLEncoder.encode(value, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static final String PAGE_HEAD =
      """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>Audit: every record and the rules behind it</title>
      <style>
      /*STYLE*/</style>
      </head>
      <body>
      <main>
      <h1>Audit: every record and the rules behind it</h1>
      <p class="sub">Filter by database, rule, policy, role and outcome, or search ids, questions, SQL and columns; open a record to see its card. The filters are kept in the address, so a link keeps them. <a href="report.html">QA report</a></p>
      <div class="filters">
      <label>split <select id="f-split"></select></label>
      <label>database <select id="f-db"></select></label>
      <label>rule <select id="f-rule"></select></label>
      <label>policy <select id="f-policy"></select></label>
      <label>role <select id="f-role"></select></label>
      <label>outcome <select id="f-outcome"></select></label>
      <label>search <input id="f-q" type="search" placeholder="id, question, SQL, column"></label>
      </div>
      <p><b id="count">loading…</b> <span class="sub">· page ready in <span id="load-ms">?</span> ms</span></p>
      <div id="list"></div>
      <p><button id="more" hidden>show more</button></p>
      </main>
      """;

  private static final String STYLE =
      """
      .filters{display:flex;flex-wrap:wrap;gap:8px 14px;background:#fff;border:1px solid #dadce0;border-radius:8px;padding:10px 14px;margin:10px 0}
      .filters select,.filters input{font:inherit;max-width:330px}
      details.rec{background:#fff;border:1px solid #dadce0;border-radius:6px;margin:4px 0;padding:4px 10px}
      details.rec>summary{color:#202124;font-weight:normal}details.rec[open]{border-left:5px solid #3367d6}
      .oc{display:inline-block;padding:0 7px;border-radius:9px;font-size:12px;color:#fff;background:#2e7d32;margin:0 6px}
      .oc.refuse{background:#c62828}.oc.rewritten{background:#ef6c00}
      .sql{font-family:"DejaVu Sans Mono",monospace;font-size:12.5px;background:#f1f3f4;padding:6px 8px;border-radius:4px;white-space:pre-wrap;word-break:break-word;margin:4px 0}
      mark{background:#ffd54f;padding:0 1px}del{background:#ffcdd2;text-decoration:line-through}ins{background:#c8e6c9;text-decoration:none}
      ol.chain{margin:4px 0;padding-left:22px}ol.chain li{margin:2px 0}.stage{color:#5f6368;font-size:12px}.matched{color:#5f6368;font-size:12px}
      .card h4{margin:10px 0 2px;font-size:13px}
      """;

  private static final String SCRIPT =
      """
      'use strict';
      const DATA = JSON.parse(document.getElementById('data').textContent);
      const PAGE = 100;
      const $ = id => document.getElementById(id);
      const F = ['split', 'db', 'rule', 'policy', 'role', 'outcome'];
      let shown = 0, hits = [];
      const esc = s => String(s).replace(/[&<>"']/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'})[c]);
      function rulesOf(s, r) {
        const set = new Set();
        r[5].forEach(v => set.add(s.rules[v[3]]));
        set.add(s.rules[r[6][2]]);
        r[6][3].forEach(st => set.add(s.rules[st[1]]));
        if (r[7]) set.add(s.rules[r[7][1]]);
        r[8].forEach(f => set.add(s.rules[f[1]]));
        set.delete('');
        return set;
      }
      DATA.forEach(s => s.records.forEach(r => { r.rules = rulesOf(s, r); r.text = (r[0] + ' ' + r[2] + ' ' + r[3] + ' ' + r[5].map(v => v[0]).join(' ')).toLowerCase(); }));
      function options(sel, values, all) {
        sel.innerHTML = '<option value="">' + all + '</option>' + values.map(v => '<option>' + esc(v) + '</option>').join('');
      }
      function split() { return DATA.find(s => s.split === $('f-split').value) || DATA[0]; }
      function fillOptions() {
        const s = split();
        const keep = {};
        F.slice(1).forEach(k => keep[k] = $('f-' + k).value);
        const rules = new Set(), outcomes = new Set(), policies = new Set(), roles = new Set();
        s.records.forEach(r => { r.rules.forEach(x => rules.add(x)); outcomes.add(r[4]); r[5].forEach(v => { roles.add(v[1]); policies.add(v[2]); }); });
        options($('f-db'), [...s.dbs].sort(), 'all ' + s.dbs.length);
        options($('f-rule'), [...rules].sort(), 'any rule');
        options($('f-policy'), [...policies].sort(), 'any violated policy');
        options($('f-role'), [...roles].sort(), 'any violating role');
        options($('f-outcome'), [...outcomes].sort(), 'any outcome');
        F.slice(1).forEach(k => $('f-' + k).value = keep[k]);
      }
      function matches(s, r, f) {
        if (f.db && s.dbs[r[1]] !== f.db) return false;
        if (f.rule && !r.rules.has(f.rule)) return false;
        if (f.outcome && r[4] !== f.outcome) return false;
        if ((f.policy || f.role) && !r[5].some(v => (!f.policy || v[2] === f.policy) && (!f.role || v[1] === f.role))) return false;
        return !f.q || r.text.includes(f.q);
      }
      function filters() {
        const f = {};
        F.forEach(k => f[k] = $('f-' + k).value);
        f.q = $('f-q').value.trim().toLowerCase();
        return f;
      }
      function apply(keepHash) {
        const s = split(), f = filters();
        hits = s.records.filter(r => matches(s, r, f));
        $('count').textContent = hits.length + ' of ' + s.records.length + ' records of ' + s.split;
        $('list').innerHTML = '';
        shown = 0;
        more();
        if (!keepHash) {
          const parts = F.filter(k => f[k]).map(k => k + '=' + encodeURIComponent(f[k]));
          if ($('f-q').value.trim()) parts.push('q=' + encodeURIComponent($('f-q').value.trim()));
          history.replaceState(null, '', '#' + parts.join('&'));
        }
      }
      function more() {
        const s = split();
        const html = hits.slice(shown, shown + PAGE).map(r => {
          const kind = r[4].startsWith('REFUSE') ? 'refuse' : r[4];
          return '<details class="rec" data-id="' + esc(r[0]) + '"><summary><b>' + esc(r[0]) + '</b> · ' + esc(s.dbs[r[1]]) +
            '<span class="oc ' + kind + '">' + esc(r[4]) + '</span>' + esc(r[2]) + '</summary></details>';
        }).join('');
        $('list').insertAdjacentHTML('beforeend', html);
        shown = Math.min(shown + PAGE, hits.length);
        $('more').hidden = shown >= hits.length;
        $('more').textContent = 'show ' + Math.min(PAGE, hits.length - shown) + ' more of ' + (hits.length - shown);
      }
      function marked(sql, columns) {
        const names = [...new Set(columns.map(c => c.slice(c.indexOf('.') + 1)))].filter(n => n);
        if (!names.length) return esc(sql);
        const re = new RegExp('(^|[^A-Za-z0-9_])(' + names.map(n => n.replace(/[.*+?^${}()|[\\]\\\\]/g, '\\\\$&')).join('|') + ')(?![A-Za-z0-9_])', 'gi');
        let out = '', last = 0, m;
        while ((m = re.exec(sql)) !== null) {
          const start = m.index + m[1].length;
          out += esc(sql.slice(last, start)) + '<mark>' + esc(m[2]) + '</mark>';
          last = start + m[2].length;
        }
        return out + esc(sql.slice(last));
      }
      function diff(before, after, p, s) {
        return esc(before.slice(0, p)) + (before.length - s > p ? '<del>' + esc(before.slice(p, before.length - s)) + '</del>' : '') +
          (after.length - s > p ? '<ins>' + esc(after.slice(p, after.length - s)) + '</ins>' : '') + esc(before.slice(before.length - s));
      }
      function card(s, r) {
        let h = '<div class="card"><p>' + esc(r[2]) + '</p><h4>SQL, violating columns marked</h4><div class="sql">' + marked(r[3], r[5].map(v => v[0])) + '</div>';
        h += '<h4>Violations</h4>' + (r[5].length ? '<ul>' + r[5].map(v => '<li><code>' + esc(v[0]) + '</code> ' + esc(v[1]) + (v[4] ? ' agg=' + v[4] : '') + ' is ' + esc(v[2]) + ' — ' + esc(s.rules[v[3]]) + '</li>').join('') + '</ul>' : '<p>none</p>');
        h += '<h4>Rules that fired, in order</h4>';
        h += r[8].length ? '<ol class="chain">' + r[8].map(f => '<li><span class="stage">' + esc(s.stages[f[0]]) + '</span> ' + esc(s.rules[f[1]]) + (f[2] ? '<br><span class="matched">' + esc(f[2]) + '</span>' : '') + '</li>').join('') + '</ol>'
          : '<p class="sub">' + (s.audited ? 'no rule fired' : 'no audit trail in this folder (generate writes audit/' + esc(s.split) + '.jsonl)') + '</p>';
        const g = r[6];
        h += '<h4>Gold label: ' + esc(g[0] === 'SQL' ? (g[3].length ? 'SQL after rewriting' : 'SQL, the original') : 'REFUSE ' + g[1]) + '</h4><p class="sub">' + esc(s.rules[g[2]]) + '</p>';
        let before = r[3];
        g[3].forEach(st => { h += '<p>step: ' + esc(s.rules[st[1]]) + '</p><div class="sql gold">' + diff(before, st[2], st[3], st[4]) + '</div>'; before = st[2]; });
        if (r[7]) h += '<h4>Negative: ' + esc(r[7][2]) + '</h4><p class="sub">' + esc(s.rules[r[7][1]]) + '</p><div class="sql negative">' + diff(r[3], r[7][0], r[7][3], r[7][4]) + '</div>';
        else h += '<h4>Negative</h4><p>none</p>';
        return h + '</div>';
      }
      $('list').addEventListener('toggle', e => {
        const d = e.target;
        if (d.open && !d.querySelector('.card')) {
          const s = split();
          const r = s.records.find(x => x[0] === d.dataset.id);
          d.insertAdjacentHTML('beforeend', card(s, r));
        }
      }, true);
      $('more').addEventListener('click', more);
      options($('f-split'), DATA.map(s => s.split), DATA.length ? DATA[0].split : '');
      $('f-split').querySelector('option').remove();
      const hash = new URLSearchParams(location.hash.slice(1));
      if (hash.get('split')) $('f-split').value = hash.get('split');
      fillOptions();
      F.slice(1).forEach(k => { if (hash.get(k)) $('f-' + k).value = hash.get(k); });
      if (hash.get('q')) $('f-q').value = hash.get('q');
      apply(true);
      const open = hash.get('open');
      if (open) {
        let i = hits.findIndex(r => r[0] === open);
        while (i >= shown && shown < hits.length) more();
        const d = [...document.querySelectorAll('details.rec')].find(x => x.dataset.id === open);
        if (d) { d.open = true; d.insertAdjacentHTML('beforeend', card(split(), split().records.find(x => x[0] === open))); if (d.getBoundingClientRect().top > innerHeight) d.scrollIntoView(); }
      }
      $('f-split').addEventListener('change', () => { fillOptions(); apply(); });
      F.slice(1).forEach(k => $('f-' + k).addEventListener('change', () => apply()));
      let typing;
      $('f-q').addEventListener('input', () => { clearTimeout(typing); typing = setTimeout(() => apply(), 150); });
      $('load-ms').textContent = Math.round(performance.now());
      document.body.dataset.ready = 'true';
      """;
}
