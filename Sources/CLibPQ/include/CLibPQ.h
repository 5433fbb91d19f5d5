// libpq, PostgreSQL's C client (Debian's libpq-dev for the header, libpq5 at run time), for the Team module only.
//
// libpq is not linked into essh: it is opened with dlopen the first time a team command or the interface's team
// worker needs it (`essh_pq_load`). Linked, it brought some twenty more shared libraries (Kerberos, LDAP, SASL, …)
// into every essh process — about 17 MB of address space and 5 MB of resident memory for `essh exec` too — and
// their load time. Use the `essh_PQ…` functions below, which call libpq's own; calling libpq's `PQ…` directly would
// not link (nothing provides them).
#ifndef ESSH_CLIBPQ_H
#define ESSH_CLIBPQ_H

#include <postgresql/libpq-fe.h>

/// Opens libpq (once per process, thread-safe). NULL when it is ready, else a sentence saying why not.
const char *essh_pq_load(void);
PGconn *essh_PQconnectdbParams(const char *const *keywords, const char *const *values, int expand_dbname);
ConnStatusType essh_PQstatus(const PGconn *conn);
char *essh_PQerrorMessage(const PGconn *conn);
void essh_PQfinish(PGconn *conn);
char *essh_PQuser(const PGconn *conn);
char *essh_PQdb(const PGconn *conn);
int essh_PQsslInUse(PGconn *conn);
PGresult *essh_PQexecParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat);
PGresult *essh_PQexec(PGconn *conn, const char *query);
PGresult *essh_PQgetResult(PGconn *conn);
void essh_PQclear(PGresult *res);
ExecStatusType essh_PQresultStatus(const PGresult *res);
char *essh_PQresultErrorField(const PGresult *res, int fieldcode);
int essh_PQntuples(const PGresult *res);
int essh_PQnfields(const PGresult *res);
char *essh_PQfname(const PGresult *res, int field_num);
int essh_PQgetisnull(const PGresult *res, int tup_num, int field_num);
char *essh_PQgetvalue(const PGresult *res, int tup_num, int field_num);
char *essh_PQcmdTuples(PGresult *res);
int essh_PQsocket(const PGconn *conn);
int essh_PQconsumeInput(PGconn *conn);
PGnotify *essh_PQnotifies(PGconn *conn);
void essh_PQfreemem(void *ptr);
PQconninfoOption *essh_PQconninfoParse(const char *conninfo, char **errmsg);
void essh_PQconninfoFree(PQconninfoOption *connOptions);

#endif
