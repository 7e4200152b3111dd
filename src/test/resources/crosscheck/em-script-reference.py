#!/usr/bin/env python3
"""Exact match as Spider's own evaluation.py counts it, question by question: the reference verdicts
of em-script-reference.tsv.gz, against which ExactMatchScriptReferenceTest checks the port
(SpiderScript, ExactMatch).

Spider's evaluation.py and process_sql.py are not part of this project: fetch them yourself from
https://github.com/taoyds/spider (the verdicts at hand were made with evaluation.py at commit
cccfe7bc99c4f5b7229890bbff75bfed50f2b008 and process_sql.py at 2c95626ae9b46dfd06c2d6b631d67329b9fd27b6)
into one folder, unchanged, and install NLTK (pip install nltk).

Input: the pairs ExactMatchScriptReferenceTest writes to target/em-script-pairs.jsonl (one JSON
object a line: source, id, dataset, db_id, gold, predicted); run that test once first (it fails
until the reference exists; the pairs are written before it compares).

For each pair this does what evaluation.py's evaluate() does for one question with --etype match:
the schema from the database's SQLite file (Schema(get_schema(path)); BIRD's SQLite files are not at
hand, nor Spider's wta_1, soccer_1 and baseball_1: their schemas are made from the tables JSON the
way get_schema makes them, lower-cased table and column names), the foreign-key map from the tables JSON (build_foreign_key_map_from_json), the gold
SQL parsed (get_sql; where it raises, the script itself would stop: verdict gold-fails), the
prediction parsed (where it raises: the script's empty query), rebuild_sql_val and rebuild_sql_col
on both, and eval_exact_match. Verdict: true, false, gold-fails, or error (the script raises after
parsing; none so far).

One deviation: process_sql.py calls nltk.word_tokenize, which first splits the text into sentences
with the Punkt model, data NLTK downloads separately (not at hand here). This driver replaces it,
before importing process_sql, by word_tokenize(text, preserve_line=True): the same Treebank word
tokenizer without the sentence split. The two can differ only where Punkt may split, at . ? !
followed by white space or some punctuation, outside string values (process_sql replaces every
quoted stretch by one placeholder first); the driver counts the texts with such a place and lists
them on stderr.

usage: em-script-reference.py SCRIPT_DIR PAIRS_JSONL SHARED_DIR | gzip -n > em-script-reference.tsv.gz
  SHARED_DIR holds spider/ (tables.json, database/), kaggledbqa/ (KaggleDBQA_tables.json,
  databases/) and bird/ (dev_tables.json).
"""
import datetime
import hashlib
import json
import os
import platform
import re
import sys

import nltk
from nltk.tokenize import word_tokenize as treebank_word_tokenize

# where Punkt may end a sentence (nltk.tokenize.punkt: a sentence-end character followed by
# white space and a token, or by one of its non-word characters)
PUNKT_CANDIDATE = re.compile(r"""[.?!](?=[)";}\]*:@'({\[!?]|\s+\S)""")
punkt_risk = []


def word_tokenize(text):
    if PUNKT_CANDIDATE.search(text):
        punkt_risk.append(text)
    return treebank_word_tokenize(text, preserve_line=True)


nltk.word_tokenize = word_tokenize


def main(script_dir, pairs_path, shared):
    sys.path.insert(0, script_dir)
    sys.setrecursionlimit(10000)
    import evaluation
    from process_sql import Schema, get_schema, get_sql

    tables = {
        "spider": os.path.join(shared, "spider", "tables.json"),
        "kaggledbqa": os.path.join(shared, "kaggledbqa", "KaggleDBQA_tables.json"),
        "bird": os.path.join(shared, "bird", "dev_tables.json"),
    }
    databases = {
        "spider": os.path.join(shared, "spider", "database"),
        "kaggledbqa": os.path.join(shared, "kaggledbqa", "databases"),
    }
    kmaps = {d: evaluation.build_foreign_key_map_from_json(path) for d, path in tables.items()}
    table_entries = {d: {e["db_id"]: e for e in json.load(open(path, encoding="utf-8"))} for d, path in tables.items()}
    schemas = {}

    def schema(dataset, db):
        if (dataset, db) not in schemas:
            path = os.path.join(databases.get(dataset, ""), db, db + ".sqlite")
            if dataset == "bird" or not os.path.exists(path):
                entry = table_entries[dataset][db]
                s = {str(t.lower()): [] for t in entry["table_names_original"]}
                for t, c in entry["column_names_original"]:
                    if t >= 0:
                        s[str(entry["table_names_original"][t].lower())].append(str(c.lower()))
            else:
                s = get_schema(path)
            schemas[(dataset, db)] = Schema(s)
        return schemas[(dataset, db)]

    def empty_sql():
        return {"except": None, "from": {"conds": [], "table_units": []}, "groupBy": [], "having": [],
                "intersect": None, "limit": None, "orderBy": [], "select": [False, []], "union": None,
                "where": []}

    def blob(name):
        with open(os.path.join(script_dir, name), "rb") as f:
            data = f.read()
        return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()

    print("# Exact match as Spider's evaluation.py counts it, per question: the script's own verdicts, made by")
    print("# em-script-reference.py on %s from %s, with evaluation.py (git blob %s)"
          % (datetime.date.today(), os.path.basename(pairs_path), blob("evaluation.py")))
    print("# and process_sql.py (git blob %s), NLTK %s, Python %s. One deviation: nltk.word_tokenize"
          % (blob("process_sql.py"), nltk.__version__, platform.python_version()))
    print("# replaced by word_tokenize(text, preserve_line=True), without Punkt's sentence split (see the script).")
    print("# source, id, verdict: true, false, gold-fails (the script's parser raises on the gold SQL), error.")
    print("# Those are taoyds/spider's evaluation.py at commit cccfe7bc99c4f5b7229890bbff75bfed50f2b008 and"
          " process_sql.py at 2c95626ae9b46dfd06c2d6b631d67329b9fd27b6.")
    print("# Pairs: ExactMatchScriptReferenceTest writes them (target/em-script-pairs.jsonl); schema from each"
          " SQLite file where at hand, else from the tables JSON.")
    evaluator = evaluation.Evaluator()
    counts = {}
    with open(pairs_path, encoding="utf-8") as f:
        for line in f:
            pair = json.loads(line)
            dataset, db = pair["dataset"], pair["db_id"]
            s = schema(dataset, db)
            try:
                g_sql = get_sql(s, pair["gold"])
                evaluator.eval_hardness(g_sql)
            except Exception:
                verdict = "gold-fails"
            else:
                try:
                    p_sql = get_sql(s, pair["predicted"])
                except Exception:
                    p_sql = empty_sql()
                try:
                    kmap = kmaps[dataset][db]
                    g_valid = evaluation.build_valid_col_units(g_sql["from"]["table_units"], s)
                    g_sql = evaluation.rebuild_sql_col(g_valid, evaluation.rebuild_sql_val(g_sql), kmap)
                    p_valid = evaluation.build_valid_col_units(p_sql["from"]["table_units"], s)
                    p_sql = evaluation.rebuild_sql_col(p_valid, evaluation.rebuild_sql_val(p_sql), kmap)
                    verdict = "true" if evaluator.eval_exact_match(p_sql, g_sql) else "false"
                except Exception as e:
                    verdict = "error"
                    print("error: %s %s: %s: %s" % (pair["source"], pair["id"], type(e).__name__, e),
                          file=sys.stderr)
            counts[verdict] = counts.get(verdict, 0) + 1
            print("%s\t%s\t%s" % (pair["source"], pair["id"], verdict))
    print("verdicts: %s" % counts, file=sys.stderr)
    print("texts where Punkt may split a sentence: %d" % len(punkt_risk), file=sys.stderr)
    for text in sorted(set(punkt_risk)):
        print("  " + text.replace("\n", " "), file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
