"""Training the shipped models (``src/prefect_docai/engines/data/``): not part of the wheel.

``python -m training.classifier`` then ``python -m training.splitter`` (or ``make train``;
``python -m training.check``, ``make train-check``, retrains both and compares the bytes);
``training.data`` builds the pages both learn from. The runtime package never imports
this package.
"""
