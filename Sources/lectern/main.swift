print("lectern")
