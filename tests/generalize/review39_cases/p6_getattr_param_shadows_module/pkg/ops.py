def act_swish(x):
    if x.sum() > 0:
        return x + 1
    return x - 1


def act_relu(x):
    return x * 2
