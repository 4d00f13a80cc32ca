"""Server reflection, both versions: grpc.reflection.v1 (what current grpcurl and clients ask
first) and grpc.reflection.v1alpha (what older ones ask).

grpcio-reflection ships only v1alpha. The two versions' protos are the same messages under
another package, so v1 is served by the same servicer: its file descriptor is v1alpha's
renamed (added to the default pool, so reflection describes v1 itself too), and its
requests and replies are read and written with the v1alpha message classes, whose bytes
on the wire are the same.
"""
from __future__ import annotations

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection_pb2 as alpha
from grpc_reflection.v1alpha._async import ReflectionServicer

V1_FILE = "grpc/reflection/v1/reflection.proto"
V1_PACKAGE = "grpc.reflection.v1"
V1_SERVICE = f"{V1_PACKAGE}.ServerReflection"
V1ALPHA_SERVICE = alpha.DESCRIPTOR.services_by_name["ServerReflection"].full_name
SERVICE_NAMES = (V1_SERVICE, V1ALPHA_SERVICE)


def _add_v1_descriptor(pool: descriptor_pool.DescriptorPool) -> None:
    try:
        pool.FindFileByName(V1_FILE)
        return
    except KeyError:
        pass
    proto = descriptor_pb2.FileDescriptorProto()
    alpha.DESCRIPTOR.CopyToProto(proto)
    old = f".{alpha.DESCRIPTOR.package}."
    proto.name, proto.package = V1_FILE, V1_PACKAGE
    proto.options.Clear()
    for message in proto.message_type:
        for f in message.field:
            if f.HasField("type_name"):
                f.type_name = f.type_name.replace(old, f".{V1_PACKAGE}.")
    for service in proto.service:
        for m in service.method:
            m.input_type = m.input_type.replace(old, f".{V1_PACKAGE}.")
            m.output_type = m.output_type.replace(old, f".{V1_PACKAGE}.")
    pool.Add(proto)


def enable(service_names, server: grpc.aio.Server) -> None:
    """Serve reflection v1 and v1alpha for `service_names` (and for reflection itself)."""
    _add_v1_descriptor(descriptor_pool.Default())
    servicer = ReflectionServicer(list(service_names) + list(SERVICE_NAMES))
    for name in SERVICE_NAMES:
        handler = grpc.stream_stream_rpc_method_handler(
            servicer.ServerReflectionInfo, request_deserializer=alpha.ServerReflectionRequest.FromString,
            response_serializer=alpha.ServerReflectionResponse.SerializeToString)
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(
            name, {"ServerReflectionInfo": handler}),))
