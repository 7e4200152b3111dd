#!/usr/bin/env python3
"""Runs Spider's own evaluation.py as its command line does, with one change: NLTK's word tokenizer
without the sentence split. The anchor `bench-evaluate --spider-script DIR` times evaluate against.

Spider's evaluation.py and process_sql.py are not part of this project: fetch them from
https://github.com/taoyds/spider into one folder, unchanged, and install NLTK (pip install nltk).

The one deviation: process_sql.py calls nltk.word_tokenize, which first splits the text into
sentences with the Punkt model, data NLTK downloads separately. This launcher replaces it, before
the script imports process_sql, by word_tokenize(text, preserve_line=True): the same Treebank word
tokenizer without the sentence split (as src/test/resources/crosscheck/em-script-reference.py does;
docs/evaluation.md, "Two exact matches", says why no verdict depends on it). Then it runs
evaluation.py as the main program with the arguments given, as `python3 evaluation.py ARGS` would.

usage: spider-script.py SCRIPT_DIR --gold FILE --pred FILE --db DIR --table FILE --etype all
"""
import os
import runpy
import sys

import nltk
from nltk.tokenize import word_tokenize as treebank_word_tokenize


def word_tokenize(text, language="english", preserve_line=True):
    return treebank_word_tokenize(text, language, preserve_line=True)


def main(script_dir, args):
    nltk.word_tokenize = word_tokenize
    script = os.path.join(script_dir, "evaluation.py")
    if not os.path.isfile(script):
        sys.exit(f"{script}: not found")
    sys.path.insert(0, script_dir)
    sys.argv = [script] + args
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    main(sys.argv[1], sys.argv[2:])
