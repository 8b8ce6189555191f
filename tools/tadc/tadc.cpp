int main() { return 0; } // placeholder, filled in by its owner
