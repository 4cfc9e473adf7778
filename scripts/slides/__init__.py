"""The teacher's slides, one job per module (scripts/build_slides.py runs them in order):

    chapters    which notebooks have a deck, and their titles
    execution   the executed notebooks, from the book's jupyter-cache
    notebook    an executed notebook made ready for nbconvert (MyST resolved by
                scripts/myst_convert.py), and the course notebook of every chapter
    export      nbconvert's reveal.js exporter with our template (template/, slides.css)
    assets      the vendored browser assets each deck folder carries
    site        the index page of the decks (index.html) and the copy inside the built book
    stamps      what each deck was built from, so an unchanged deck is not rebuilt

Where the build writes is read from the environment in scripts/build_paths.py.
"""

from pathlib import Path

HERE = Path(__file__).resolve().parent  # the template, the CSS and the index page live beside the code
TITLE = "Attention, Step by Step"
COURSE = "course"
COURSE_TITLE = "course-title"  # the course deck's title slide alone: the first page of the course handout
