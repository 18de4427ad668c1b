def udf(string):
    if len(string) > 2:
        result = string.upper()      # new allocation
    else:
        result = string + string     # new allocation
    return result + 'abc'
