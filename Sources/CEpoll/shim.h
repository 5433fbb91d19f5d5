// Linux event-loop calls the Glibc module does not bring in. Only Reachability imports this.
#include <sys/epoll.h>
#include <sys/eventfd.h>
