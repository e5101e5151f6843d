# Godot 4: fills an Image (FORMAT_RF) with gpu-noise heights on the GPU through RenderingDevice.
# Not run here (no Godot in CI); its shader, gpu_noise_heightmap.glsl, is compiled by glslang in
# tests/suite/engines.rs. Copy both files and the exported gpu_noise.glsl(.tables) into
# res://noise/.
extends Node

const SIZE := Vector2i(512, 512)

func heightmap(origin: Vector2i) -> Image:
	var rd := RenderingServer.create_local_rendering_device()
	var shader_file: RDShaderFile = load("res://noise/gpu_noise_heightmap.glsl")
	var shader := rd.shader_create_from_spirv(shader_file.get_spirv())
	var pipeline := rd.compute_pipeline_create(shader)

	var height_bytes := SIZE.x * SIZE.y * 4
	var heights := rd.storage_buffer_create(height_bytes)
	var uniforms: Array[RDUniform] = [_buffer_uniform(0, heights)]
	# The lattice's tables: only where the export wrote them (a hash lattice reads none).
	if FileAccess.file_exists("res://noise/gpu_noise.glsl.tables"):
		var table_bytes := FileAccess.get_file_as_bytes("res://noise/gpu_noise.glsl.tables")
		var tables := rd.storage_buffer_create(table_bytes.size(), table_bytes)
		uniforms.append(_buffer_uniform(2, tables))
	var uniform_set := rd.uniform_set_create(uniforms, shader, 0)

	var window := PackedInt32Array([origin.x, origin.y, SIZE.x, SIZE.y]).to_byte_array()
	var list := rd.compute_list_begin()
	rd.compute_list_bind_compute_pipeline(list, pipeline)
	rd.compute_list_bind_uniform_set(list, uniform_set, 0)
	rd.compute_list_set_push_constant(list, window, window.size())
	rd.compute_list_dispatch(list, ceili(SIZE.x / 8.0), ceili(SIZE.y / 8.0), 1)
	rd.compute_list_end()
	rd.submit()
	rd.sync()

	var bytes := rd.buffer_get_data(heights)
	rd.free_rid(heights)
	rd.free()
	return Image.create_from_data(SIZE.x, SIZE.y, false, Image.FORMAT_RF, bytes)

func _buffer_uniform(binding: int, buffer: RID) -> RDUniform:
	var u := RDUniform.new()
	u.uniform_type = RenderingDevice.UNIFORM_TYPE_STORAGE_BUFFER
	u.binding = binding
	u.add_id(buffer)
	return u
