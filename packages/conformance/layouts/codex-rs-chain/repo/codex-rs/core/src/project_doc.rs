// corpus
