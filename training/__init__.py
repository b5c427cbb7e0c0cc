"""Training the shipped models (``src/prefect_docai/engines/data/``): not part of the wheel.

``python -m training.classifier`` then ``python -m training.splitter`` (or ``make train``);
``training.data`` builds the pages both learn from. The runtime package never imports
this package.
"""
