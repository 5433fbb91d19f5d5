#include "CLibPQ.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// libpq's functions, found in libpq.so.5 by essh_pq_load.
static PGconn *(*real_PQconnectdbParams)(const char *const *keywords, const char *const *values, int expand_dbname);
static ConnStatusType (*real_PQstatus)(const PGconn *conn);
static char *(*real_PQerrorMessage)(const PGconn *conn);
static void (*real_PQfinish)(PGconn *conn);
static char *(*real_PQuser)(const PGconn *conn);
static char *(*real_PQdb)(const PGconn *conn);
static int (*real_PQsslInUse)(PGconn *conn);
static PGresult *(*real_PQexecParams)(PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat);
static PGresult *(*real_PQexec)(PGconn *conn, const char *query);
static PGresult *(*real_PQgetResult)(PGconn *conn);
static void (*real_PQclear)(PGresult *res);
static ExecStatusType (*real_PQresultStatus)(const PGresult *res);
static char *(*real_PQresultErrorField)(const PGresult *res, int fieldcode);
static int (*real_PQntuples)(const PGresult *res);
static int (*real_PQnfields)(const PGresult *res);
static char *(*real_PQfname)(const PGresult *res, int field_num);
static int (*real_PQgetisnull)(const PGresult *res, int tup_num, int field_num);
static char *(*real_PQgetvalue)(const PGresult *res, int tup_num, int field_num);
static char *(*real_PQcmdTuples)(PGresult *res);
static int (*real_PQsocket)(const PGconn *conn);
static int (*real_PQconsumeInput)(PGconn *conn);
static PGnotify *(*real_PQnotifies)(PGconn *conn);
static void (*real_PQfreemem)(void *ptr);
static PQconninfoOption *(*real_PQconninfoParse)(const char *conninfo, char **errmsg);
static void (*real_PQconninfoFree)(PQconninfoOption *connOptions);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];
static const char *result = failure;

static void load(void) {
    void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(failure, sizeof failure, "PostgreSQL's client library cannot be loaded (%s): install Debian's libpq5 "
                 "(apt-get install libpq5).", dlerror());
        return;
    }
#define FIND(name) \
    if ((*(void **)&real_##name = dlsym(library, #name)) == NULL) { \
        snprintf(failure, sizeof failure, "PostgreSQL's client library has no %s: install Debian's libpq5 (15 or " \
                 "newer).", #name); \
        return; \
    }
    FIND(PQconnectdbParams)
    FIND(PQstatus)
    FIND(PQerrorMessage)
    FIND(PQfinish)
    FIND(PQuser)
    FIND(PQdb)
    FIND(PQsslInUse)
    FIND(PQexecParams)
    FIND(PQexec)
    FIND(PQgetResult)
    FIND(PQclear)
    FIND(PQresultStatus)
    FIND(PQresultErrorField)
    FIND(PQntuples)
    FIND(PQnfields)
    FIND(PQfname)
    FIND(PQgetisnull)
    FIND(PQgetvalue)
    FIND(PQcmdTuples)
    FIND(PQsocket)
    FIND(PQconsumeInput)
    FIND(PQnotifies)
    FIND(PQfreemem)
    FIND(PQconninfoParse)
    FIND(PQconninfoFree)
#undef FIND
    result = NULL;
}

const char *essh_pq_load(void) {
    pthread_once(&once, load);
    return result;
}

PGconn *essh_PQconnectdbParams(const char *const *keywords, const char *const *values, int expand_dbname) { return real_PQconnectdbParams(keywords, values, expand_dbname); }
ConnStatusType essh_PQstatus(const PGconn *conn) { return real_PQstatus(conn); }
char *essh_PQerrorMessage(const PGconn *conn) { return real_PQerrorMessage(conn); }
void essh_PQfinish(PGconn *conn) { real_PQfinish(conn); }
char *essh_PQuser(const PGconn *conn) { return real_PQuser(conn); }
char *essh_PQdb(const PGconn *conn) { return real_PQdb(conn); }
int essh_PQsslInUse(PGconn *conn) { return real_PQsslInUse(conn); }
PGresult *essh_PQexecParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat) { return real_PQexecParams(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat); }
PGresult *essh_PQexec(PGconn *conn, const char *query) { return real_PQexec(conn, query); }
PGresult *essh_PQgetResult(PGconn *conn) { return real_PQgetResult(conn); }
void essh_PQclear(PGresult *res) { real_PQclear(res); }
ExecStatusType essh_PQresultStatus(const PGresult *res) { return real_PQresultStatus(res); }
char *essh_PQresultErrorField(const PGresult *res, int fieldcode) { return real_PQresultErrorField(res, fieldcode); }
int essh_PQntuples(const PGresult *res) { return real_PQntuples(res); }
int essh_PQnfields(const PGresult *res) { return real_PQnfields(res); }
char *essh_PQfname(const PGresult *res, int field_num) { return real_PQfname(res, field_num); }
int essh_PQgetisnull(const PGresult *res, int tup_num, int field_num) { return real_PQgetisnull(res, tup_num, field_num); }
char *essh_PQgetvalue(const PGresult *res, int tup_num, int field_num) { return real_PQgetvalue(res, tup_num, field_num); }
char *essh_PQcmdTuples(PGresult *res) { return real_PQcmdTuples(res); }
int essh_PQsocket(const PGconn *conn) { return real_PQsocket(conn); }
int essh_PQconsumeInput(PGconn *conn) { return real_PQconsumeInput(conn); }
PGnotify *essh_PQnotifies(PGconn *conn) { return real_PQnotifies(conn); }
void essh_PQfreemem(void *ptr) { real_PQfreemem(ptr); }
PQconninfoOption *essh_PQconninfoParse(const char *conninfo, char **errmsg) { return real_PQconninfoParse(conninfo, errmsg); }
void essh_PQconninfoFree(PQconninfoOption *connOptions) { real_PQconninfoFree(connOptions); }
