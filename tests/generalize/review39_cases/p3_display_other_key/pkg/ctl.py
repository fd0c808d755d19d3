class Ctl:
    def __call__(self, y):
        if y.sum() > 0:
            return y + 1
        return y - 1
