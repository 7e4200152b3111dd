#!/usr/bin/env python3
"""The floor of an execution-match evaluation, the baseline `bench-evaluate` times evaluate against.

For each question of a generated split (a JSON array of records) and its prediction (one line per
record, SQL or REFUSE): when both the gold label and the prediction are SQL, run the gold SQL and the
predicted SQL on the question's SQLite file (DIR/<db_id>/<db_id>.sqlite, opened read-only, one
connection per database) and compare the two results, as lists when the gold has ORDER BY, else as
multisets. No parsing, no rules, no exact match, no output files: what every execution-match
evaluator has to do at least. Prints the number of questions compared and of matches.

usage: exec-floor.py DATASET PREDICTIONS DATABASE_DIR
"""
import collections
import json
import re
import sqlite3
import sys


def main(dataset, predictions, databases):
    with open(dataset, encoding="utf-8") as f:
        records = json.load(f)
    with open(predictions, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if len(lines) == len(records) + 1 and lines[-1] == "":
        lines.pop()
    if len(lines) != len(records):
        sys.exit(f"{predictions}: {len(lines)} lines for {len(records)} records")
    connections = {}
    compared = matched = 0
    for record, line in zip(records, lines):
        predicted = line.strip()
        gold = record["gold_label"]
        if gold["type"] != "SQL" or predicted in ("", "REFUSE"):
            continue
        db = record["db_id"]
        if db not in connections:
            connections[db] = sqlite3.connect(f"file:{databases}/{db}/{db}.sqlite?mode=ro", uri=True)
        connection = connections[db]
        compared += 1
        try:
            gold_rows = connection.execute(gold["sql"]).fetchall()
            predicted_rows = connection.execute(predicted).fetchall()
        except sqlite3.Error:
            continue
        if re.search(r"(?i)\border\s+by\b", gold["sql"]):
            matched += gold_rows == predicted_rows
        else:
            matched += collections.Counter(map(repr, gold_rows)) == collections.Counter(map(repr, predicted_rows))
    print(f"{compared} questions executed and compared, {matched} results equal")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[-1])
    main(*sys.argv[1:])
