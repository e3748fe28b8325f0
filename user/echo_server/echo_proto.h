/*
 * The echo demo's protocol, shared by user/echo_server and user/echo_client:
 * the server's coreid, its opcode, and what a request and a result carry.
 *
 * ECHO_OP_ECHO: data[0] is a data ICA holding arg[0] bytes of text (at most
 * one page: every ICA has at least one). The server upper-cases them in
 * place and returns the same data ICA with status = the number of bytes.
 * Any other opcode: status -ENOSYS, nothing returned.
 */
#ifndef ECHO_PROTO_H
#define ECHO_PROTO_H

#define ECHO_COREID  10u
#define ECHO_OP_ECHO 1u
#define ECHO_MAX_LEN 4096u

#endif
