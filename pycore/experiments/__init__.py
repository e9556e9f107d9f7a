"""The numpy experiments behind the pages' tables: the reproduction, the training grid and the learning-rate sweep.

Build time only: these modules use numpy, which the browser does not have, so ``pycore.sitegen.pack``
leaves this package out of the archive the site ships, as it does the site generator. Each module
runs from the command line (``python -m pycore.experiments.reproduce``) and prints what the page shows.
"""
