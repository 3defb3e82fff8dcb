package bufq;
class Placeholder {}
