// libpq, PostgreSQL's C client (Debian's libpq-dev). Only the Team module imports it.
#include <libpq-fe.h>
