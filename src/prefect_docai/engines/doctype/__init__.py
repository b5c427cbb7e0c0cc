"""The document-type model classify and paperflow share: page views, features, the
trained classifier and its page/document scoring."""
