class Gauss:
    def __init__(self, x):
        self.x = x

    def rsample(self, y):
        if y.sum() > 0:
            return y + self.x
        return y - self.x


class Quiet:
    def __init__(self, x):
        self.x = x

    def rsample(self, y):
        return y * 2 + self.x
